package io.strata.engine.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.Transaction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;

/**
 * Helpers shared by the read-path tests: byte strings from text, error-code assertions,
 * and the two-transaction conflict probe.
 */
final class ReadTests {
    /** A key no read-path test reads: the write that makes a probed transaction non-read-only. */
    static final byte[] UNRELATED = {0x01, 'u', 'n', 'r', 'e', 'l', 'a', 't', 'e', 'd'};

    private ReadTests() {}

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    static String s(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.ISO_8859_1);
    }

    /** Keys of rows, as text. */
    static List<String> keys(List<KeyValue> rows) {
        List<String> out = new ArrayList<>(rows.size());
        for (KeyValue kv : rows) {
            out.add(s(kv.getKey()));
        }
        return out;
    }

    /** Sets each key to its own name as value, in one committed transaction. */
    static void load(Database db, String... keys) {
        db.run(tr -> {
            for (String k : keys) {
                tr.set(b(k), b(k));
            }
            return null;
        });
    }

    /** The FoundationDB error code that {@code call} failed with (a CompletionException around an FDBException, or the FDBException itself). */
    static int errorCode(Runnable call) {
        Throwable t = catchThrowable(call::run);
        assertThat(t).as("expected an FDBException").isNotNull();
        if (t instanceof CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        assertThat(t).isInstanceOf(FDBException.class);
        return ((FDBException) t).getCode();
    }

    /** The error code a future fails with. */
    static int errorCode(CompletableFuture<?> f) {
        return errorCode(f::join);
    }

    /**
     * The conflict probe: T1 takes a read version and runs {@code reads}; T2 runs
     * {@code writes} and commits; T1 then writes an unrelated key and commits. Returns true
     * when T1 failed with {@code not_committed} (1020), false when it committed.
     */
    static boolean conflicts(Database db, Consumer<Transaction> reads, Consumer<Transaction> writes) {
        return conflicts(db, t -> {}, reads, writes);
    }

    /**
     * As {@link #conflicts(Database, Consumer, Consumer)}, with {@code setup} run on T1 first
     * (options, own writes). The normal key space is restored afterwards, so that probes in
     * one test all see the same data.
     */
    static boolean conflicts(Database db, Consumer<Transaction> setup, Consumer<Transaction> reads, Consumer<Transaction> writes) {
        List<KeyValue> before = db.read(tr -> tr.getRange(new byte[0], new byte[] {(byte) 0xff}).asList().join());
        try {
            return probe(db, setup, reads, writes);
        } finally {
            db.run(tr -> {
                tr.clear(new byte[0], new byte[] {(byte) 0xff});
                for (KeyValue kv : before) {
                    tr.set(kv.getKey(), kv.getValue());
                }
                return null;
            });
        }
    }

    private static boolean probe(Database db, Consumer<Transaction> setup, Consumer<Transaction> reads, Consumer<Transaction> writes) {
        try (Transaction t1 = db.createTransaction()) {
            setup.accept(t1);
            t1.getReadVersion().join();
            reads.accept(t1);
            db.run(t2 -> {
                writes.accept(t2);
                return null;
            });
            t1.set(UNRELATED, b("x"));
            Throwable t = catchThrowable(() -> t1.commit().join());
            if (t == null) {
                return false;
            }
            assertThat(t).isInstanceOf(CompletionException.class).hasCauseInstanceOf(FDBException.class);
            assertThat(((FDBException) t.getCause()).getCode()).as("T1's commit error").isEqualTo(1020);
            return true;
        }
    }

    /** A writer that sets {@code key}. */
    static Consumer<Transaction> setting(String key) {
        return tr -> tr.set(b(key), b("changed"));
    }
}
