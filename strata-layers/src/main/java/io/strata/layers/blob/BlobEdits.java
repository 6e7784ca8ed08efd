package io.strata.layers.blob;

import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.layers.allocator.HighContentionAllocator;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Changes made inside the caller's transaction. Each reads the head serializably and, when it
 * changes anything, writes it back with the next revision: that read-and-write of one key is
 * what makes two concurrent changes of a blob conflict. A blob that does not exist yet gets a
 * fresh id from the allocator in the same transaction.
 */
final class BlobEdits {
    private final BlobLayout layout;
    private final BlobReads reads;
    private final HighContentionAllocator ids;
    private final int chunkSize;

    BlobEdits(BlobLayout layout, BlobReads reads, HighContentionAllocator ids, int chunkSize) {
        this.layout = layout;
        this.reads = reads;
        this.ids = ids;
        this.chunkSize = chunkSize;
    }

    /** A fresh id from the allocator: the integer of the tuple it hands out. */
    CompletableFuture<Long> newId(Transaction tr) {
        return ids.allocate(tr).thenApply(prefix -> Tuple.fromBytes(prefix).getLong(0));
    }

    CompletableFuture<Void> replace(Transaction tr, byte[] name, byte[] value) {
        byte[] headKey = layout.head(name);
        return reads.head(tr, name)
                .thenCompose(old -> {
                    if (old == null) {
                        return newId(tr).thenApply(id -> new BlobHead(id, value.length, 0, chunkSize));
                    }
                    tr.clear(layout.chunksOf(old.id()));
                    return CompletableFuture.completedFuture(
                            new BlobHead(old.id(), value.length, old.revision() + 1, chunkSize));
                })
                .thenAccept(head -> {
                    for (long i = 0, n = head.chunkCount(); i < n; i++) {
                        int from = (int) (i * chunkSize);
                        tr.set(layout.chunk(head.id(), i), Arrays.copyOfRange(value, from,
                                Math.min(from + chunkSize, value.length)));
                    }
                    tr.set(headKey, head.encode());
                });
    }

    CompletableFuture<Long> writeAt(Transaction tr, byte[] name, long offset, byte[] bytes) {
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset " + offset);
        }
        if (offset > Long.MAX_VALUE - bytes.length) {
            throw new IllegalArgumentException("offset " + offset + " + " + bytes.length + " bytes overflows a long");
        }
        byte[] headKey = layout.head(name);
        return reads.head(tr, name).thenCompose(head -> {
            if (bytes.length == 0) {
                // As Redis SETRANGE: writing nothing pads nothing and creates nothing.
                return CompletableFuture.completedFuture(head == null ? 0L : head.length());
            }
            return existingOrNew(tr, head).thenCompose(h -> overlay(tr, headKey, h, offset, bytes));
        });
    }

    CompletableFuture<Long> append(Transaction tr, byte[] name, byte[] bytes) {
        byte[] headKey = layout.head(name);
        return reads.head(tr, name).thenCompose(head -> {
            if (bytes.length == 0) {
                // As Redis APPEND: an empty append creates an empty value, and changes nothing else.
                if (head != null) {
                    return CompletableFuture.completedFuture(head.length());
                }
                return newId(tr).thenApply(id -> {
                    tr.set(headKey, new BlobHead(id, 0, 0, chunkSize).encode());
                    return 0L;
                });
            }
            if (head != null && head.length() > Long.MAX_VALUE - bytes.length) {
                throw new IllegalArgumentException("appending " + bytes.length + " bytes overflows the length");
            }
            return existingOrNew(tr, head).thenCompose(h -> overlay(tr, headKey, h, h.length(), bytes));
        });
    }

    CompletableFuture<Boolean> truncate(Transaction tr, byte[] name, long newLength) {
        if (newLength < 0) {
            throw new IllegalArgumentException("negative length " + newLength);
        }
        byte[] headKey = layout.head(name);
        return reads.head(tr, name).thenCompose(head -> {
            if (head == null) {
                return CompletableFuture.completedFuture(false);
            }
            if (newLength == head.length()) {
                return CompletableFuture.completedFuture(true);
            }
            tr.set(headKey, head.changed(newLength).encode());
            if (newLength > head.length()) {
                return CompletableFuture.completedFuture(true); // nothing is stored past the old length: the growth reads as zeros
            }
            int size = head.chunkSize();
            long kept = Chunks.count(newLength, size);
            tr.clear(layout.chunksFrom(head.id(), kept));
            int keptOfLast = (int) (newLength - (kept - 1) * size);
            if (newLength == 0 || keptOfLast == size) {
                return CompletableFuture.completedFuture(true);
            }
            byte[] lastKey = layout.chunk(head.id(), kept - 1);
            return tr.get(lastKey).thenApply(stored -> {
                if (stored != null && stored.length > keptOfLast) {
                    tr.set(lastKey, Arrays.copyOf(stored, keptOfLast)); // no byte may stay past the length
                }
                return true;
            });
        });
    }

    CompletableFuture<Boolean> delete(Transaction tr, byte[] name) {
        byte[] headKey = layout.head(name);
        return reads.head(tr, name).thenApply(head -> {
            if (head == null) {
                return false;
            }
            tr.clear(headKey);
            tr.clear(layout.chunksOf(head.id()));
            return true;
        });
    }

    private CompletableFuture<BlobHead> existingOrNew(Transaction tr, BlobHead head) {
        return head != null ? CompletableFuture.completedFuture(head)
                : newId(tr).thenApply(id -> new BlobHead(id, 0, 0, chunkSize));
    }

    /**
     * Writes {@code bytes} at {@code offset} into the value {@code head} describes (length
     * and revision before the write) and stores the new head. Only the first and last touched
     * chunks can be partly covered; each is read (serializably) only when it may hold stored
     * bytes the write does not cover. Chunks between the old end and {@code offset} stay
     * absent: they read as zeros.
     */
    private CompletableFuture<Long> overlay(Transaction tr, byte[] headKey, BlobHead head, long offset, byte[] bytes) {
        int size = head.chunkSize();
        long oldLength = head.length();
        long end = offset + bytes.length;
        long first = offset / size;
        long last = (end - 1) / size;
        Map<Long, CompletableFuture<byte[]>> olds = new HashMap<>();
        for (long i : new long[] {first, last}) {
            long start = i * size;
            boolean coveredWhole = offset <= start && end >= Math.min(start + size, oldLength);
            if (start < oldLength && !coveredWhole && !olds.containsKey(i)) {
                olds.put(i, tr.get(layout.chunk(head.id(), i)));
            }
        }
        return CompletableFuture.allOf(olds.values().toArray(new CompletableFuture[0])).thenApply(ignore -> {
            for (long i = first; i <= last; i++) {
                long start = i * size;
                long from = Math.max(offset, start);
                int n = (int) (Math.min(end, start + size) - from);
                CompletableFuture<byte[]> old = olds.get(i);
                tr.set(layout.chunk(head.id(), i),
                        Chunks.overlay(old == null ? null : old.join(), (int) (from - start), bytes, (int) (from - offset), n));
            }
            long newLength = Math.max(oldLength, end);
            tr.set(headKey, head.changed(newLength).encode());
            return newLength;
        });
    }
}
