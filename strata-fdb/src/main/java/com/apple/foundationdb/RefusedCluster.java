package com.apple.foundationdb;

import com.apple.foundationdb.async.AsyncIterable;
import com.apple.foundationdb.async.AsyncIterator;
import io.strata.ConnectionString;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * What {@code FDB.open} hands out for a cluster file that names a FoundationDB cluster, which
 * strata-fdb cannot reach: a {@link Database} that, like fdb-java's, opens without contacting
 * anything, and whose transactions fail their first use of the cluster with one clear
 * {@link FDBException} (2108 {@code unsupported_operation}) saying what to do instead.
 *
 * <p>What FoundationDB's client answers without the cluster is answered here too: the special
 * keys {@code \xff\xff/connection_string} and {@code \xff\xff/cluster_file_path}, the read
 * version after {@code setReadVersion} (the Record Layer's {@code performNoOp} checks the client
 * so), and the commit of a transaction that wrote nothing (the client commits it without a
 * round trip). So code that
 * only holds a second database handle, or reads how it is connected, behaves as with fdb-java;
 * everything that needs the cluster fails at once, where fdb-java would wait for a cluster that
 * is not there.
 *
 * <p>Concurrency: the handles hold no mutable state but a transaction's "wrote something" flag;
 * like fdb-java's, a transaction is meant for one thread at a time.
 */
final class RefusedCluster {
    private static final byte[] CONNECTION_STRING = special("connection_string");
    private static final byte[] CLUSTER_FILE_PATH = special("cluster_file_path");

    private final String connectionString;
    private final String clusterFile;
    private final FDBException refusal;

    private RefusedCluster(String connectionString, String clusterFile, FDBException refusal) {
        this.connectionString = connectionString;
        this.clusterFile = clusterFile;
        this.refusal = refusal;
    }

    /**
     * A database handle on the cluster {@code connectionString} names.
     *
     * @param clusterFile the cluster file it was read from
     * @param refusal     the error every use of the cluster fails with
     */
    static Database open(String clusterFileContents, String clusterFile, Executor executor, FDBException refusal) {
        return new RefusedCluster(trim(clusterFileContents), clusterFile, refusal).database(executor);
    }

    /** The connection string as FoundationDB's client keeps it: comments and every blank removed. */
    static String trim(String contents) {
        return ConnectionString.clean(contents).replaceAll("\\s", "");
    }

    @SuppressWarnings("unchecked")
    private Database database(Executor executor) {
        Database[] self = new Database[1];
        InvocationHandler handler = (proxy, method, args) -> {
            switch (method.getName()) {
                case "createTransaction":
                    return transaction(self[0], args == null || args.length == 0 ? executor : (Executor) args[0]);
                case "options":
                    return new DatabaseOptions((code, param) -> { });
                case "getExecutor":
                    return executor;
                case "getMainThreadBusyness":
                    return 0.0;
                case "close":
                    return null;
                case "run":
                case "read":
                    return runLoop(self[0], args);
                case "runAsync":
                case "readAsync":
                    return runAsync(self[0], args);
                case "openTenant":
                    throw refusal();
                default:
                    return fallback(proxy, method, args, self[0]);
            }
        };
        self[0] = (Database) Proxy.newProxyInstance(Database.class.getClassLoader(), new Class<?>[] {Database.class}, handler);
        return self[0];
    }

    @SuppressWarnings("unchecked")
    private Transaction transaction(Database db, Executor executor) {
        boolean[] wrote = new boolean[1];
        // A read version the program set: NativeAPI answers getReadVersion with it, no I/O.
        long[] readVersion = {-1};
        InvocationHandler handler = (proxy, method, args) -> {
            switch (method.getName()) {
                case "get":
                    return answerLocally((byte[]) args[0]);
                case "setReadVersion":
                    readVersion[0] = (Long) args[0];
                    return null;
                case "getReadVersion":
                    return readVersion[0] >= 0 ? CompletableFuture.completedFuture(readVersion[0]) : failed();
                case "set":
                case "clear":
                case "mutate":
                case "addWriteConflictRange":
                    wrote[0] = true;
                    return null;
                case "addReadConflictRange":
                case "cancel":
                case "close":
                    return null;
                case "commit":
                    return wrote[0] ? failed() : CompletableFuture.completedFuture(null);
                case "getCommittedVersion":
                    return -1L;
                case "onError":
                    return CompletableFuture.failedFuture((Throwable) args[0]);
                case "options":
                    return new TransactionOptions((code, param) -> { });
                case "snapshot":
                    return proxy;
                case "getDatabase":
                    return db;
                case "getExecutor":
                    return executor;
                case "run":
                case "read":
                    return ((Function<Object, ?>) args[0]).apply(proxy);
                case "runAsync":
                case "readAsync":
                    return ((Function<Object, ?>) args[0]).apply(proxy);
                default:
                    return fallback(proxy, method, args, null);
            }
        };
        return (Transaction) Proxy.newProxyInstance(Transaction.class.getClassLoader(), new Class<?>[] {Transaction.class}, handler);
    }

    /** What the client answers without the cluster: the two connection keys; anything else needs it. */
    private CompletableFuture<byte[]> answerLocally(byte[] key) {
        if (Arrays.equals(key, CONNECTION_STRING)) {
            return CompletableFuture.completedFuture(connectionString.getBytes(StandardCharsets.UTF_8));
        }
        if (Arrays.equals(key, CLUSTER_FILE_PATH)) {
            return CompletableFuture.completedFuture(clusterFile.getBytes(StandardCharsets.UTF_8));
        }
        return failed();
    }

    /** fdb-java's retry loop: apply, commit, and ask onError — which ends it with the refusal. */
    @SuppressWarnings("unchecked")
    private Object runLoop(Database db, Object[] args) {
        Executor e = args.length > 1 ? (Executor) args[1] : db.getExecutor();
        Transaction tr = db.createTransaction(e);
        try {
            while (true) {
                try {
                    Object result = ((Function<Object, ?>) args[0]).apply(tr);
                    tr.commit().join();
                    return result;
                } catch (RuntimeException err) {
                    tr = tr.onError(err).join();
                }
            }
        } finally {
            tr.close();
        }
    }

    @SuppressWarnings("unchecked")
    private Object runAsync(Database db, Object[] args) {
        Executor e = args.length > 1 ? (Executor) args[1] : db.getExecutor();
        Transaction tr = db.createTransaction(e);
        CompletableFuture<?> body;
        try {
            body = (CompletableFuture<?>) ((Function<Object, ?>) args[0]).apply(tr);
        } catch (RuntimeException err) {
            body = CompletableFuture.failedFuture(err);
        }
        return body.thenCompose(v -> tr.commit().thenApply(ignored -> v)).whenComplete((v, err) -> tr.close());
    }

    /** Everything else: a future or range fails with the refusal; an Object method answers as usual. */
    private Object fallback(Object proxy, Method method, Object[] args, Database db) {
        Class<?> type = method.getReturnType();
        if (method.getDeclaringClass() == Object.class) {
            return switch (method.getName()) {
                case "equals" -> proxy == args[0];
                case "hashCode" -> System.identityHashCode(proxy);
                default -> "strata-fdb handle on the FoundationDB cluster '" + connectionString + "' (not reachable from strata-fdb)";
            };
        }
        if (type == CompletableFuture.class) {
            return failed();
        }
        if (type == AsyncIterable.class) {
            return failingRange();
        }
        throw refusal();
    }

    private <T> CompletableFuture<T> failed() {
        return CompletableFuture.failedFuture(refusal());
    }

    private FDBException refusal() {
        FDBException e = new FDBException(refusal.getMessage(), refusal.getCode());
        e.setStackTrace(new Throwable().getStackTrace());
        return e;
    }

    private <T> AsyncIterable<T> failingRange() {
        return new AsyncIterable<>() {
            @Override
            public AsyncIterator<T> iterator() {
                return new AsyncIterator<>() {
                    @Override
                    public CompletableFuture<Boolean> onHasNext() {
                        return failed();
                    }

                    @Override
                    public boolean hasNext() {
                        return onHasNext().join();
                    }

                    @Override
                    public T next() {
                        hasNext();
                        throw new NoSuchElementException();
                    }

                    @Override
                    public void cancel() {
                    }
                };
            }

            @Override
            public CompletableFuture<List<T>> asList() {
                return failed();
            }
        };
    }

    private static byte[] special(String name) {
        return ("\u00ff\u00ff/" + name).getBytes(StandardCharsets.ISO_8859_1);
    }
}
