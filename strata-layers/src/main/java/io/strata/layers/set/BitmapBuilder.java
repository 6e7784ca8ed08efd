package io.strata.layers.set;

import org.roaringbitmap.Container;
import org.roaringbitmap.longlong.HighLowContainer;
import org.roaringbitmap.longlong.Roaring64Bitmap;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

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
 * <p>Not thread-safe; used once.
 */
final class BitmapBuilder {
    private final HighLowContainer containers = new HighLowContainer();
    private boolean empty = true;

    /**
     * Adds the members {@code high48 << 16 | low} for each {@code low} in {@code c}. Calls
     * must come in increasing {@code high48}, each at most once; empty containers are skipped.
     */
    void put(byte[] high48BigEndian, Container c) {
        if (!c.isEmpty()) {
            containers.put(high48BigEndian, c);
            empty = false;
        }
    }

    Roaring64Bitmap build() {
        Roaring64Bitmap result = new Roaring64Bitmap();
        if (empty) {
            return result;
        }
        try {
            ByteBuffer bytes = ByteBuffer.allocate(Math.toIntExact(containers.serializedSizeInBytes()));
            containers.serialize(bytes);
            bytes.flip();
            result.deserialize(bytes);
            return result;
        } catch (IOException e) {
            throw new UncheckedIOException("copying containers into a Roaring64Bitmap", e);
        }
    }
}
