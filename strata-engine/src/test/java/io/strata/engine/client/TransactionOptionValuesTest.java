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

/**
 * Values of options the engine otherwise ignores, checked as FoundationDB checks them:
 * {@code Transaction::setOption} in {@code fdbclient/NativeAPI.actor.cpp} and
 * {@code TagSet::addTag} in {@code fdbclient/TagThrottle.actor.cpp}, with the limits of the
 * client knobs {@code MAX_TRANSACTION_TAG_LENGTH} (16) and {@code MAX_TAGS_PER_TRANSACTION} (5).
 * The error may surface at the call or at the next operation, as for every option.
 */
class TransactionOptionValuesTest {
    private final Database db = Strata.inMemory();

    @AfterEach
    void close() {
        db.close();
    }

    @Test
    void tagOfSixteenBytesIsAccepted() {
        Transaction tr = db.createTransaction();
        tr.options().setTag("a".repeat(16));
        tr.options().setAutoThrottleTag("b".repeat(16));
        tr.set(b("k"), b("v"));
        await(tr.commit());
    }

    @Test
    void tagOverSixteenBytesFailsWithTagTooLong() {
        Transaction tr = db.createTransaction();
        assertThat(deferredErrorOf(() -> tr.options().setTag("a".repeat(17)), tr::commit)).isEqualTo(2110);
        Transaction tr2 = db.createTransaction();
        assertThat(deferredErrorOf(() -> tr2.options().setAutoThrottleTag("a".repeat(17)), tr2::commit)).isEqualTo(2110);
    }

    @Test
    void sixthTagFailsWithTooManyTags() {
        Transaction tr = db.createTransaction();
        for (int i = 0; i < 5; i++) {
            tr.options().setTag("t" + i);
        }
        assertThat(deferredErrorOf(() -> tr.options().setAutoThrottleTag("t5"), tr::commit)).isEqualTo(2109);
    }

    @Test
    void repeatedTagCountsOnceUntilFiveAreSet() {
        Transaction tr = db.createTransaction();
        for (int i = 0; i < 10; i++) {
            tr.options().setTag("same");
        }
        for (int i = 0; i < 4; i++) {
            tr.options().setAutoThrottleTag("t" + i);
        }
        // Five distinct tags now: TagSet::addTag checks the count before looking for a repeat.
        assertThat(deferredErrorOf(() -> tr.options().setTag("same"), tr::commit)).isEqualTo(2109);
    }

    @Test
    void tagsAreResetByOnError() {
        Transaction tr = db.createTransaction();
        for (int i = 0; i < 5; i++) {
            tr.options().setTag("t" + i);
        }
        Transaction retry = await(tr.onError(new com.apple.foundationdb.FDBException("not_committed", 1020)));
        for (int i = 0; i < 5; i++) {
            retry.options().setTag("u" + i);
        }
        retry.set(b("k"), b("v"));
        await(retry.commit());
    }

    @Test
    void debugTransactionIdentifierMustBeOneToOneHundredBytes() {
        Transaction ok = db.createTransaction();
        ok.options().setDebugTransactionIdentifier("x".repeat(100));
        ok.options().setLogTransaction();
        await(ok.getReadVersion());

        Transaction empty = db.createTransaction();
        assertThat(deferredErrorOf(() -> empty.options().setDebugTransactionIdentifier(""), empty::commit)).isEqualTo(2006);
        Transaction tooLong = db.createTransaction();
        assertThat(deferredErrorOf(() -> tooLong.options().setDebugTransactionIdentifier("x".repeat(101)), tooLong::commit))
                .isEqualTo(2006);
    }

    @Test
    void debugTransactionIdentifierCannotBeChangedOnceSet() {
        Transaction tr = db.createTransaction();
        tr.options().setDebugTransactionIdentifier("first");
        tr.options().setDebugTransactionIdentifier("first");
        assertThat(deferredErrorOf(() -> tr.options().setDebugTransactionIdentifier("second"), tr::commit)).isEqualTo(2000);
    }

    @Test
    void logTransactionWithoutADebugIdentifierFailsWithInvalidOperation() {
        Transaction tr = db.createTransaction();
        assertThat(deferredErrorOf(() -> tr.options().setLogTransaction(), tr::commit)).isEqualTo(2000);
    }

    @SuppressWarnings("deprecation")
    @Test
    void transactionLoggingEnableSetsTheIdentifierAndLogs() {
        Transaction tr = db.createTransaction();
        tr.options().setTransactionLoggingEnable("id");
        tr.options().setLogTransaction();
        assertThat(deferredErrorOf(() -> tr.options().setDebugTransactionIdentifier("other"), tr::commit)).isEqualTo(2000);
        Transaction empty = db.createTransaction();
        assertThat(deferredErrorOf(() -> empty.options().setTransactionLoggingEnable(""), empty::commit)).isEqualTo(2006);
    }

    @Test
    void transactionLoggingMaxFieldLengthOfZeroOrBelowMinusOneIsInvalid() {
        Transaction tr = db.createTransaction();
        tr.options().setTransactionLoggingMaxFieldLength(-1);
        tr.options().setTransactionLoggingMaxFieldLength(1);
        assertThat(deferredErrorOf(() -> tr.options().setTransactionLoggingMaxFieldLength(0), tr::commit)).isEqualTo(2006);
        Transaction tr2 = db.createTransaction();
        assertThat(deferredErrorOf(() -> tr2.options().setTransactionLoggingMaxFieldLength(-2), tr2::commit)).isEqualTo(2006);
    }

    @Test
    void spanParentMustBeAThirtyThreeByteSpanContext() {
        Transaction tr = db.createTransaction();
        tr.options().setSpanParent(new byte[33]);
        await(tr.getReadVersion());
        Transaction uid = db.createTransaction();
        assertThat(deferredErrorOf(() -> uid.options().setSpanParent(new byte[16]), uid::commit)).isEqualTo(2006);
    }
}
