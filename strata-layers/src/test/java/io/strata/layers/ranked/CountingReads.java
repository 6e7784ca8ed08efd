package io.strata.layers.ranked;

import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.async.AsyncIterable;
import com.apple.foundationdb.async.AsyncIterator;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A transaction that counts the keys its reads return: one per {@code get}, one per row of a
 * range read, through its {@code snapshot()} view too. A dynamic proxy, so that every other
 * call goes to the real transaction unchanged.
 */
final class CountingReads implements InvocationHandler {
    private final Object target;
    private final AtomicLong keys;

    private CountingReads(Object target, AtomicLong keys) {
        this.target = target;
        this.keys = keys;
    }

    static Transaction of(Transaction tr, AtomicLong keys) {
        return (Transaction) Proxy.newProxyInstance(Transaction.class.getClassLoader(), new Class<?>[] {Transaction.class},
                new CountingReads(tr, keys));
    }

    static ReadTransaction of(ReadTransaction tr, AtomicLong keys) {
        return (ReadTransaction) Proxy.newProxyInstance(ReadTransaction.class.getClassLoader(),
                new Class<?>[] {ReadTransaction.class}, new CountingReads(tr, keys));
    }

    @Override
    @SuppressWarnings("unchecked")
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        Object result;
        try {
            result = method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
        switch (method.getName()) {
            case "snapshot" -> {
                return of((ReadTransaction) result, keys);
            }
            case "get" -> {
                keys.incrementAndGet();
                return result;
            }
            case "getRange" -> {
                return counted((AsyncIterable<KeyValue>) result);
            }
            default -> {
                return result;
            }
        }
    }

    private AsyncIterable<KeyValue> counted(AsyncIterable<KeyValue> rows) {
        return new AsyncIterable<>() {
            @Override
            public AsyncIterator<KeyValue> iterator() {
                AsyncIterator<KeyValue> it = rows.iterator();
                return new AsyncIterator<>() {
                    @Override
                    public CompletableFuture<Boolean> onHasNext() {
                        return it.onHasNext();
                    }

                    @Override
                    public boolean hasNext() {
                        return it.hasNext();
                    }

                    @Override
                    public KeyValue next() {
                        keys.incrementAndGet();
                        return it.next();
                    }

                    @Override
                    public void cancel() {
                        it.cancel();
                    }
                };
            }

            @Override
            public CompletableFuture<List<KeyValue>> asList() {
                return rows.asList().thenApply(list -> {
                    keys.addAndGet(list.size());
                    return list;
                });
            }
        };
    }
}
