package io.strata.layers.set;

import org.roaringbitmap.CharIterator;
import org.roaringbitmap.Container;
import org.roaringbitmap.longlong.HighLowContainer;
import org.roaringbitmap.longlong.Roaring64Bitmap;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Builds a {@link Roaring64Bitmap} a whole container at a time.
 *
 * <p>Adding the members one by one costs an ART lookup per member (tens of milliseconds for
 * a million), while the set already holds them grouped exactly as {@code Roaring64Bitmap}
 * does: a 48-bit high part (6 bytes, big-endian) and a 16-bit {@link Container}.
 * {@code Roaring64Bitmap} offers no way to hand it a container, but its public
 * {@link HighLowContainer} does ({@code put}), and {@code Roaring64Bitmap}'s serialized form
 * is exactly {@code HighLowContainer}'s (its {@code serialize}/{@code deserialize} delegate
 * to it). So the containers go into a {@code HighLowContainer} and cross over through one
 * serialize/deserialize, a copy of the bitmap's bytes. That format is the one
 * {@code Roaring64Bitmap} keeps stable for stored bitmaps; {@code BitmapBuilderTest} checks
 * the result against a member-by-member build, so a library upgrade that broke the
 * correspondence would fail the build rather than corrupt results.
 *
 * <p>The crossing costs about as much per container as adding one member does (measured:
 * some 0.3 to 0.5 microseconds per container for the round trip, 0.15 to 0.25 per
 * {@code addLong}), so it pays only when containers hold many members. When the average
 * container holds fewer than {@value #MEMBERS_PER_CONTAINER_FOR_COPY} members, as in sets of
 * ids scattered over the whole 64-bit range, the members are added one by one instead. Both
 * paths give equal bitmaps.
 *
 * <p>Not thread-safe; used once.
 */
final class BitmapBuilder {
    /** Below this many members per container on average, adding members beats copying containers. */
    static final int MEMBERS_PER_CONTAINER_FOR_COPY = 8;

    /** High parts, in the order given (increasing). */
    private long[] highs = new long[16];
    /** For each high part: a {@link Container}, or a stored value still encoded (decoded only if needed). */
    private Object[] parts = new Object[16];
    private int size;
    private long members;

    /**
     * Adds the members {@code high48 << 16 | low} for each {@code low} in {@code c}. Calls
     * must come in increasing {@code high48}, each at most once; empty containers are skipped.
     */
    void put(long high48, Container c) {
        if (!c.isEmpty()) {
            append(high48, c, c.getCardinality());
        }
    }

    /**
     * Like {@link #put(long, Container)} for a container as stored ({@link ContainerCodec}),
     * which the member-by-member path reads without building a {@code Container}: for the
     * one-member containers of sparse sets that halves the garbage.
     */
    void putEncoded(long high48, byte[] value) {
        append(high48, value, ContainerCodec.cardinality(value));
    }

    private void append(long high48, Object part, int cardinality) {
        if (size == highs.length) {
            highs = Arrays.copyOf(highs, size * 2);
            parts = Arrays.copyOf(parts, size * 2);
        }
        highs[size] = high48;
        parts[size] = part;
        size++;
        members += cardinality;
    }

    Roaring64Bitmap build() {
        Roaring64Bitmap result = new Roaring64Bitmap();
        if (size == 0) {
            return result;
        }
        if (members < (long) MEMBERS_PER_CONTAINER_FOR_COPY * size) {
            for (int i = 0; i < size; i++) {
                long base = highs[i] << 16;
                if (parts[i] instanceof byte[] value) {
                    ContainerCodec.forEach(value, low -> result.addLong(base | low));
                } else {
                    for (CharIterator it = ((Container) parts[i]).getCharIterator(); it.hasNext(); ) {
                        result.addLong(base | it.next());
                    }
                }
            }
            return result;
        }
        HighLowContainer all = new HighLowContainer();
        for (int i = 0; i < size; i++) {
            Container c = parts[i] instanceof byte[] value ? ContainerCodec.decode(value) : (Container) parts[i];
            all.put(highBytes(highs[i]), c);
        }
        try {
            ByteBuffer bytes = ByteBuffer.allocate(Math.toIntExact(all.serializedSizeInBytes()));
            all.serialize(bytes);
            bytes.flip();
            result.deserialize(bytes);
            return result;
        } catch (IOException e) {
            throw new UncheckedIOException("copying containers into a Roaring64Bitmap", e);
        }
    }

    /** The high part as {@code Roaring64Bitmap} keys it: 6 bytes, big-endian. */
    static byte[] highBytes(long high48) {
        byte[] bytes = new byte[6];
        for (int i = 0; i < 6; i++) {
            bytes[i] = (byte) (high48 >>> (8 * (5 - i)));
        }
        return bytes;
    }
}
