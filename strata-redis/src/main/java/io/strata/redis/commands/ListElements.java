package io.strata.redis.commands;

import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.StreamingMode;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.async.AsyncIterator;
import com.apple.foundationdb.async.AsyncUtil;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The keys of one list's elements, under the list's object subspace {@code O} (the object id
 * its metadata names, see {@code Keyspace}).
 *
 * <h2>Key layout</h2>
 * <pre>
 * O pos[8]              -&gt; the element at position pos, or its first {@link #CHUNK} bytes
 * O pos[8] part[4]      -&gt; bytes part*CHUNK .. of an element longer than one value (part &gt;= 1)
 * </pre>
 * {@code pos} is the signed position with its sign bit flipped, big-endian, so that byte order
 * is numeric order; {@code part} is big-endian. An element's parts sort right after its first
 * key and before the next position, so a range read of positions returns whole elements in
 * order, in either direction, and clearing the range of positions {@code [a, b)} removes
 * exactly those elements. Elements up to FoundationDB's value limit take one key; longer ones
 * are bounded by the transaction size (10 MB), not by the layout.
 *
 * <p>Concurrency: every method works inside the caller's transaction.
 */
final class ListElements {
    /** FoundationDB's largest value. */
    static final int CHUNK = 100_000;

    private final byte[] prefix;

    ListElements(byte[] objectPrefix) {
        this.prefix = objectPrefix;
    }

    /** The key of position {@code pos} (its first part). */
    byte[] key(long pos) {
        return ByteBuffer.allocate(prefix.length + 8).put(prefix).putLong(pos ^ Long.MIN_VALUE).array();
    }

    private byte[] partKey(long pos, int part) {
        return ByteBuffer.allocate(prefix.length + 12).put(prefix).putLong(pos ^ Long.MIN_VALUE).putInt(part).array();
    }

    private long positionOf(byte[] key) {
        return ByteBuffer.wrap(key, prefix.length, 8).getLong() ^ Long.MIN_VALUE;
    }

    private boolean isFirstPart(byte[] key) {
        return key.length == prefix.length + 8;
    }

    /**
     * Writes {@code value} at {@code pos}, which must hold nothing (cleared or never used). An
     * element of {@link #CHUNK} bytes or more is cut into parts of exactly CHUNK bytes and a
     * last part shorter than CHUNK (possibly empty), so that a reader going forward knows an
     * element is complete when it sees a part shorter than CHUNK.
     */
    void write(Transaction tr, long pos, byte[] value) {
        if (value.length < CHUNK) {
            tr.set(key(pos), value);
            return;
        }
        tr.set(key(pos), Arrays.copyOfRange(value, 0, CHUNK));
        int parts = value.length / CHUNK;
        for (int part = 1; part <= parts; part++) {
            int from = part * CHUNK;
            tr.set(partKey(pos, part), Arrays.copyOfRange(value, from, Math.min(value.length, from + CHUNK)));
        }
    }

    /** Removes the elements at positions {@code [from, to)}. */
    void clear(Transaction tr, long from, long to) {
        if (from < to) {
            tr.clear(key(from), key(to));
        }
    }

    /** The element at {@code pos}, or null if there is none. */
    CompletableFuture<byte[]> get(ReadTransaction tr, long pos) {
        return read(tr, pos, pos + 1, false).thenApply(list -> list.isEmpty() ? null : list.get(0));
    }

    /** The elements at positions {@code [from, to)}, in order, or in reverse order if {@code reverse}. */
    CompletableFuture<List<byte[]>> read(ReadTransaction tr, long from, long to, boolean reverse) {
        if (from >= to) {
            return CompletableFuture.completedFuture(new ArrayList<>());
        }
        return tr.getRange(key(from), key(to), ReadTransaction.ROW_LIMIT_UNLIMITED, reverse, StreamingMode.WANT_ALL)
                .asList().thenApply(kvs -> {
                    List<byte[]> out = new ArrayList<>();
                    Assembler a = new Assembler(reverse);
                    for (KeyValue kv : kvs) {
                        if (a.add(kv)) {
                            out.add(a.take());
                        }
                    }
                    return out;
                });
    }

    /** Receives elements of a scan; returns false to stop it. */
    @FunctionalInterface
    interface Visitor {
        boolean visit(long pos, byte[] value);
    }

    /**
     * Visits the elements at positions {@code [from, to)} one by one, from {@code from} up or,
     * if {@code reverse}, from {@code to - 1} down, reading in batches and stopping as soon as the
     * visitor says so (LPOS, LREM and LINSERT stop at a match without reading the rest).
     */
    CompletableFuture<Void> scan(ReadTransaction tr, long from, long to, boolean reverse, Visitor visitor) {
        if (from >= to) {
            return CompletableFuture.completedFuture(null);
        }
        AsyncIterator<KeyValue> it = tr.getRange(key(from), key(to), ReadTransaction.ROW_LIMIT_UNLIMITED, reverse,
                StreamingMode.ITERATOR).iterator();
        Assembler a = new Assembler(reverse);
        return AsyncUtil.whileTrue(() -> it.onHasNext().thenApply(has -> {
            if (!has) {
                return false;
            }
            KeyValue kv = it.next();
            if (a.add(kv)) {
                long pos = a.position;
                if (!visitor.visit(pos, a.take())) {
                    it.cancel();
                    return false;
                }
            }
            return true;
        }), tr.getExecutor());
    }

    /** Joins the parts of elements read in key order or in reverse key order. */
    private final class Assembler {
        private final boolean reverse;
        private final Deque<byte[]> parts = new ArrayDeque<>();
        long position;

        Assembler(boolean reverse) {
            this.reverse = reverse;
        }

        /** Adds one key-value; true when it completes an element (then call {@link #take}). */
        boolean add(KeyValue kv) {
            boolean first = isFirstPart(kv.getKey());
            if (!reverse) {
                // Forward: the first part opens an element, the one shorter than CHUNK ends it.
                if (first) {
                    position = positionOf(kv.getKey());
                    parts.clear();
                }
                parts.addLast(kv.getValue());
                return kv.getValue().length < CHUNK;
            }
            parts.addFirst(kv.getValue());
            if (first) {
                position = positionOf(kv.getKey());
                return true;
            }
            return false;
        }

        byte[] take() {
            if (parts.size() == 1) {
                return parts.pollFirst();
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            for (byte[] p : parts) {
                out.writeBytes(p);
            }
            parts.clear();
            return out.toByteArray();
        }
    }
}
