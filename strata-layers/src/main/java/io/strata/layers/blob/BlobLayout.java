package io.strata.layers.blob;

import com.apple.foundationdb.Range;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;

import java.util.Arrays;

/**
 * The keys of a {@link BlobStore} under its subspace {@code S} (the byte-by-byte layout and the
 * reasons are in {@link BlobStore}'s class notes):
 * <pre>
 * S.pack((0)) ++ name      -&gt; head ({@link BlobHead})
 * S.pack((1, id, index))   -&gt; chunk {@code index} of the value stored under {@code id}
 * S.pack((2, id))          -&gt; staging record of {@code id} ({@link StagingRecord})
 * S.pack((3)) ...          -&gt; the id allocator's keys (a HighContentionAllocator)
 * </pre>
 * The tags encode as {@code 14}, {@code 15 01}, {@code 15 02}, {@code 15 03}: the head keys
 * (after {@code 14}) can never collide with the others (after {@code 15}).
 */
final class BlobLayout {
    /** FoundationDB's largest key. */
    static final int KEY_SIZE_LIMIT = 10_000;
    /** The longest tuple encoding of a non-negative long: type code and 8 bytes. */
    private static final int MAX_TUPLE_LONG = 9;

    final Subspace subspace;
    final byte[] headPrefix;
    final Subspace chunks;
    final Subspace staging;
    final Subspace allocator;

    BlobLayout(Subspace subspace) {
        this.subspace = subspace;
        this.headPrefix = subspace.pack(Tuple.from(0));
        this.chunks = subspace.get(1);
        this.staging = subspace.get(2);
        this.allocator = subspace.get(3);
    }

    /** The longest name accepted: its head key must stay within the key limit. */
    int maxNameBytes() {
        return KEY_SIZE_LIMIT - headPrefix.length;
    }

    byte[] head(byte[] name) {
        if (name.length > maxNameBytes()) {
            throw new IllegalArgumentException("a blob name may have at most " + maxNameBytes() + " bytes, got " + name.length);
        }
        byte[] key = Arrays.copyOf(headPrefix, headPrefix.length + name.length);
        System.arraycopy(name, 0, key, headPrefix.length, name.length);
        return key;
    }

    byte[] chunk(long id, long index) {
        return chunks.pack(Tuple.from(id, index));
    }

    /** Every chunk of {@code id}. */
    Range chunksOf(long id) {
        return chunks.range(Tuple.from(id));
    }

    /**
     * Chunks {@code [fromIndex, toIndex)} of {@code id}: tuple integers of one sign sort in
     * numeric order, so this is a plain range of keys.
     */
    Range chunks(long id, long fromIndex, long toIndex) {
        return new Range(chunk(id, fromIndex), chunk(id, toIndex));
    }

    /** Chunks {@code fromIndex} and after of {@code id}. */
    Range chunksFrom(long id, long fromIndex) {
        return new Range(chunk(id, fromIndex), chunksOf(id).end);
    }

    /** The chunk index of a key read from {@link #chunksOf(long)}. */
    long indexOf(byte[] chunkKey) {
        return chunks.unpack(chunkKey).getLong(1);
    }

    byte[] staging(long id) {
        return staging.pack(Tuple.from(id));
    }

    long idOfStaging(byte[] stagingKey) {
        return staging.unpack(stagingKey).getLong(0);
    }

    /** The longest chunk key, to bound what a chunk costs a transaction. */
    int maxChunkKeyBytes() {
        return chunks.getKey().length + 2 * MAX_TUPLE_LONG;
    }
}
