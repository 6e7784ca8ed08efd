package io.strata.layers.set;

import org.roaringbitmap.CharIterator;
import org.roaringbitmap.Container;
import org.roaringbitmap.longlong.HighLowContainer;
import org.roaringbitmap.longlong.Roaring64Bitmap;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

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

    private final List<byte[]> highs = new ArrayList<>();
    private final List<Container> containers = new ArrayList<>();
    private long members;

    /**
     * Adds the members {@code high48 << 16 | low} for each {@code low} in {@code c}. Calls
     * must come in increasing {@code high48}, each at most once; empty containers are skipped.
     */
    void put(byte[] high48BigEndian, Container c) {
        if (!c.isEmpty()) {
            highs.add(high48BigEndian);
            containers.add(c);
            members += c.getCardinality();
        }
    }

    Roaring64Bitmap build() {
        Roaring64Bitmap result = new Roaring64Bitmap();
        if (containers.isEmpty()) {
            return result;
        }
        if (members < (long) MEMBERS_PER_CONTAINER_FOR_COPY * containers.size()) {
            for (int i = 0; i < containers.size(); i++) {
                long high = 0;
                for (byte b : highs.get(i)) {
                    high = high << 8 | (b & 0xFF);
                }
                for (CharIterator it = containers.get(i).getCharIterator(); it.hasNext(); ) {
                    result.addLong(high << 16 | it.next());
                }
            }
            return result;
        }
        HighLowContainer all = new HighLowContainer();
        for (int i = 0; i < containers.size(); i++) {
            all.put(highs.get(i), containers.get(i));
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
}
