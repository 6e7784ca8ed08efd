package io.strata.engine.client;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.Transaction;
import io.strata.Strata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.strata.engine.client.Fdb.await;
import static io.strata.engine.client.Fdb.b;
import static io.strata.engine.client.Fdb.deferredErrorOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A value given to an option that takes none, through fdb-java's raw option consumer.
 * FoundationDB refuses it with {@code invalid_option_value} (2006) exactly where the option's
 * handler calls {@code validateOptionValueNotPresent}: {@code ReadYourWritesTransaction::setOptionImpl}
 * ({@code fdbclient/ReadYourWrites.actor.cpp}), {@code Transaction::setOption} and
 * {@code DatabaseContext::setOption} ({@code fdbclient/NativeAPI.actor.cpp}). Options whose
 * handler does not check take the value and ignore it. The error may surface at the call or
 * at the next operation, as for every option.
 */
class OptionValuePresenceTest {
    private static final byte[] VALUE = b("x");
    /** causal_write_risky, read_your_writes_disable, access_system_keys, snapshot_ryw_enable, lock_aware, bypass_unreadable. */
    private static final int[] CHECKED = {10, 51, 301, 600, 700, 1100};

    private final Database db = Strata.inMemory();

    @AfterEach
    void close() {
        db.close();
    }

    @Test
    void valueForAValueLessTransactionOptionFailsWithInvalidOptionValue() {
        for (int code : CHECKED) {
            Transaction tr = db.createTransaction();
            tr.set(b("k"), b("v"));
            assertThat(deferredErrorOf(() -> tr.options().getOptionConsumer().setOption(code, VALUE), tr::commit))
                    .as("option %d", code).isEqualTo(2006);
            tr.close();
        }
        // Present means non-null: an empty value is a value.
        Transaction tr = db.createTransaction();
        assertThat(deferredErrorOf(() -> tr.options().getOptionConsumer().setOption(10, new byte[0]), tr::commit))
                .isEqualTo(2006);
        tr.close();
    }

    @Test
    void noValueForTheSameOptionsSucceeds() {
        for (int code : CHECKED) {
            Transaction tr = db.createTransaction();
            tr.options().getOptionConsumer().setOption(code, null);
            tr.set(b("k"), b("v"));
            await(tr.commit());
            tr.close();
        }
    }

    @Test
    void valueIsCheckedBeforeTheOptionsOwnChecks() {
        // RYW validates the value before refusing read_your_writes_disable after a write
        // (client_invalid_operation, 2000).
        Transaction ryw = db.createTransaction();
        ryw.set(b("k"), b("v"));
        assertThat(deferredErrorOf(() -> ryw.options().getOptionConsumer().setOption(51, VALUE), ryw::commit))
                .isEqualTo(2006);
        ryw.close();
        // NativeAPI validates initialize_new_database's value before read_version_already_set.
        Transaction init = db.createTransaction();
        await(init.getReadVersion());
        assertThat(deferredErrorOf(() -> init.options().getOptionConsumer().setOption(300, VALUE), init::commit))
                .isEqualTo(2006);
        init.close();
    }

    @Test
    void valueLessOptionsFoundationDbDoesNotCheckAcceptAValue() {
        // causal_read_disable, durability_risky, bypass_storage_quota, read_priority_low:
        // no validateOptionValueNotPresent in their handlers.
        for (int code : new int[] {21, 120, 304, 510}) {
            Transaction tr = db.createTransaction();
            tr.options().getOptionConsumer().setOption(code, VALUE);
            tr.set(b("k"), b("v"));
            await(tr.commit());
            tr.close();
        }
    }

    @Test
    void databaseOptionsCheckedByDatabaseContextRefuseAValue() {
        // snapshot_ryw_enable, snapshot_ryw_disable, use_config_database.
        for (int code : new int[] {26, 27, 800}) {
            Throwable t = catchThrowable(() -> db.options().getOptionConsumer().setOption(code, VALUE));
            assertThat(t).as("database option %d", code).isNotNull();
            assertThat(Fdb.code(t)).isEqualTo(2006);
        }
        db.options().getOptionConsumer().setOption(26, null);
        db.options().getOptionConsumer().setOption(27, null);
        db.options().getOptionConsumer().setOption(800, null);
        Transaction tr = db.createTransaction();
        tr.set(b("k"), b("v"));
        await(tr.commit());
    }
}
