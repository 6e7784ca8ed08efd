package com.apple.foundationdb;

import com.apple.foundationdb.async.AsyncIterator;
import com.apple.foundationdb.async.AsyncUtil;
import com.apple.foundationdb.async.CloseableAsyncIterator;
import com.apple.foundationdb.tuple.ByteArrayUtil;
import io.strata.engine.cluster.ProcessInfo;
import io.strata.engine.client.EngineDatabase;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.NoSuchElementException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Where keys live: shard boundaries and the addresses of the processes that store a key —
 * fdb-java's {@code LocalityUtil}, on the embedded engine.
 *
 * <p>Boundaries are read, as in FoundationDB, from the system range {@code \xff/keyServers/},
 * whose keys are the first key of each shard; the engine serves that range from its own
 * shard boundaries. Every key is stored by the engine in this process, whose address is
 * {@link ProcessInfo#ADDRESS} (the loopback address, port 0: nothing listens). Transactions of another implementation get FoundationDB's
 * {@code locality_information_unavailable} (1033) from {@link #getAddressesForKey}.
 */
public class LocalityUtil {
    private static final byte[] KEY_SERVERS = "\u00ff/keyServers/".getBytes(StandardCharsets.ISO_8859_1);

    private LocalityUtil() {}

    /**
     * The shard boundaries in {@code [begin, end)}, in order, read by a transaction of its own
     * that the iterator closes; a boundary is the first key of a shard. Reads restart past the
     * last boundary returned when the transaction grows too old, so long scans complete.
     *
     * @param db    the database
     * @param begin the inclusive start of the range
     * @param end   the exclusive end of the range
     * @return an iterator to close when done
     */
    public static CloseableAsyncIterator<byte[]> getBoundaryKeys(Database db, byte[] begin, byte[] end) {
        return new BoundaryIterator(db.createTransaction(), begin, end);
    }

    /**
     * As {@link #getBoundaryKeys(Database, byte[], byte[])}, in a new transaction of
     * {@code tr}'s database that reads at {@code tr}'s read version when it has one already;
     * {@code tr} itself is not used.
     */
    public static CloseableAsyncIterator<byte[]> getBoundaryKeys(Transaction tr, byte[] begin, byte[] end) {
        Transaction own = tr.getDatabase().createTransaction(tr.getExecutor());
        CompletableFuture<Long> readVersion = tr.getReadVersion();
        if (readVersion.isDone() && !readVersion.isCompletedExceptionally()) {
            own.setReadVersion(readVersion.join());
        }
        return new BoundaryIterator(own, begin, end);
    }

    /**
     * The addresses ({@code IP:PORT}) of the storage processes holding {@code key}.
     *
     * @return a future of the addresses, failed with 1033 {@code locality_information_unavailable}
     * for a transaction that is not the engine's
     */
    public static CompletableFuture<String[]> getAddressesForKey(Transaction tr, byte[] key) {
        if (!(tr.getDatabase() instanceof EngineDatabase db)) {
            // As fdb-java for a transaction it did not make: a future already failed.
            return CompletableFuture.failedFuture(new FDBException("locality_information_unavailable", 1033));
        }
        // fdb-java's is a native future (FDBTransaction.getAddressesForKey): it completes on the executor.
        return db.handOut(CompletableFuture.completedFuture(new String[] {ProcessInfo.ADDRESS}), tr.getExecutor());
    }

    static byte[] keyServersKey(byte[] key) {
        return ByteArrayUtil.join(KEY_SERVERS, key);
    }

    /**
     * Pages through {@code \xff/keyServers/[begin, end)}. Not thread-safe: one consumer, as
     * every {@code AsyncIterator}.
     */
    private static final class BoundaryIterator implements CloseableAsyncIterator<byte[]> {
        private Transaction tr;
        /** Where the next read starts: just after the last boundary returned. */
        private byte[] next;
        private final byte[] end;
        /** Whether a boundary was returned since the current read started (a restart then makes progress). */
        private boolean progressed;
        private AsyncIterator<KeyValue> rows;
        private CompletableFuture<Boolean> hasNext;

        BoundaryIterator(Transaction tr, byte[] begin, byte[] end) {
            this.tr = tr;
            this.next = Arrays.copyOf(begin, begin.length);
            this.end = Arrays.copyOf(end, end.length);
            this.hasNext = read();
        }

        private CompletableFuture<Boolean> read() {
            if (ByteArrayUtil.compareUnsigned(next, end) >= 0) {
                return CompletableFuture.completedFuture(false);
            }
            progressed = false;
            tr.options().setReadSystemKeys();
            tr.options().setLockAware();
            rows = tr.getRange(keyServersKey(next), keyServersKey(end)).iterator();
            return afterRows();
        }

        /** What the rows' next step says, decided on the executor as fdb-java's iterator decides it ({@code composeHandleAsync}). */
        private CompletableFuture<Boolean> afterRows() {
            return AsyncUtil.composeHandleAsync(rows.onHasNext(), (more, error) -> more != null
                    ? CompletableFuture.completedFuture(more) : recover(error), tr.getExecutor());
        }

        private CompletableFuture<Boolean> recover(Throwable error) {
            Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
            if (cause instanceof FDBException && ((FDBException) cause).getCode() == 1007 && progressed) {
                // Too old, but past some boundaries already: go on from there in a new transaction.
                Transaction old = tr;
                tr = old.getDatabase().createTransaction(old.getExecutor());
                old.close();
                return read();
            }
            if (!(cause instanceof RuntimeException)) {
                return CompletableFuture.failedFuture(cause);
            }
            return tr.onError(cause).thenCompose(retry -> {
                tr = retry;
                return read();
            });
        }

        @Override
        public CompletableFuture<Boolean> onHasNext() {
            return hasNext;
        }

        @Override
        public boolean hasNext() {
            return hasNext.join();
        }

        @Override
        public byte[] next() {
            if (!hasNext.isDone()) {
                throw new IllegalStateException("Call to next without hasNext()=true");
            }
            if (!hasNext.join()) {
                throw new NoSuchElementException();
            }
            byte[] key = rows.next().getKey();
            byte[] boundary = Arrays.copyOfRange(key, KEY_SERVERS.length, key.length);
            next = ByteArrayUtil.join(boundary, new byte[] {0});
            progressed = true;
            hasNext = afterRows();
            return boundary;
        }

        @Override
        public void remove() {
            throw new UnsupportedOperationException("Boundary keys are read-only");
        }

        @Override
        public void close() {
            tr.close();
        }
    }
}
