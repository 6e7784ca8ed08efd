package io.strata.bench.ssd;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.StreamingMode;
import com.apple.foundationdb.Transaction;
import io.strata.MvccWindow;
import io.strata.Storage;
import io.strata.Strata;

import java.nio.file.Path;
import java.util.concurrent.CompletionException;
import java.util.concurrent.locks.LockSupport;

/**
 * Strata on its disk storage engine: {@code Strata.builder().storage(Storage.SSD)
 * .diskCacheBytes(cacheBytes).mvccWindow(window).open(directory)}, {@code Durability.FSYNC}
 * (the default), used through fdb-java's API as an application would.
 *
 * <ul>
 *   <li>A batch is one {@code db.run} setting its keys: acknowledged once its log record is
 *       fsynced (group commit shares the fsync among concurrent batches).</li>
 *   <li>A commit refused with {@code storage_quota_exceeded} (1225) — the store's heap
 *       estimate over its limit, 60% of the heap, while the disk store catches up — waits
 *       1 ms and retries; the retries are counted and reported, never hidden.</li>
 *   <li>A point read is a transaction of its own: {@code createTransaction}, {@code get},
 *       {@code join}, {@code close}. A scan is {@code getRange(begin, END, limit, false,
 *       WANT_ALL)} in a transaction of its own.</li>
 * </ul>
 */
final class StrataTarget implements SsdTarget {
    private static final int STORAGE_QUOTA_EXCEEDED = 1225;

    private final Database db;
    private final String name;

    private StrataTarget(Database db, String name) {
        this.db = db;
        this.name = name;
    }

    static StrataTarget open(Path directory, long cacheBytes, MvccWindow window) {
        return new StrataTarget(Strata.builder().storage(Storage.SSD).diskCacheBytes(cacheBytes).mvccWindow(window).open(directory),
                window == MvccWindow.FIVE_SECONDS ? STRATA : STRATA_OPEN);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int writeBatch(SsdData data, long first, int count) {
        for (int refused = 0; ; refused++) {
            try {
                db.run(tr -> {
                    for (long i = first; i < first + count; i++) {
                        tr.set(data.key(i), data.value(i));
                    }
                    return null;
                });
                return refused;
            } catch (RuntimeException e) {
                if (code(e) != STORAGE_QUOTA_EXCEEDED) {
                    throw e;
                }
                LockSupport.parkNanos(1_000_000);
            }
        }
    }

    private static int code(Throwable e) {
        while (e instanceof CompletionException && e.getCause() != null) {
            e = e.getCause();
        }
        return e instanceof FDBException f ? f.getCode() : -1;
    }

    @Override
    public Reader reader() {
        return new Reader() {
            @Override
            public byte[] get(byte[] key) {
                try (Transaction tr = db.createTransaction()) {
                    return tr.get(key).join();
                }
            }

            @Override
            public int scan(byte[] begin, int limit) {
                try (Transaction tr = db.createTransaction()) {
                    return tr.getRange(begin, SsdData.END, limit, false, StreamingMode.WANT_ALL).asList().join().size();
                }
            }

            @Override
            public void close() {}
        };
    }

    @Override
    public java.util.List<byte[]> splitPoints(long chunkBytes) {
        try (Transaction tr = db.createTransaction()) {
            return tr.getRangeSplitPoints(new byte[0], SsdData.END, chunkBytes).join().getKeys();
        }
    }

    @Override
    public void close() {
        db.close();
    }
}
