package io.strata.layers.set;

import org.roaringbitmap.ArrayContainer;
import org.roaringbitmap.BitmapContainer;
import org.roaringbitmap.CharIterator;
import org.roaringbitmap.Container;
import org.roaringbitmap.RunContainer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.IntConsumer;

/**
 * The bytes of one stored container: the low 16 bits of the members that share a 48-bit
 * high part. The first byte names the representation, the rest is its payload; all 16-bit
 * numbers are little-endian (RoaringBitmap's own byte order, so a bitmap is one bulk copy).
 * <pre>
 * 0x01 ARRAY   v_0 v_1 ... v_{n-1}          n sorted distinct u16 values, 1 &lt;= n &lt;= 4096
 *                                            length 1 + 2n (3 bytes for a lone member)
 * 0x02 BITMAP  w_0 ... w_1023                1024 u64 words; bit b of w_i is member 64i + b
 *                                            length 8193, the largest a value can be
 * 0x03 RUN     s_0 l_0 ... s_{r-1} l_{r-1}   r runs [s_i, s_i + l_i], u16 start and u16
 *                                            length minus one, sorted, disjoint
 *                                            length 1 + 4r (5 bytes for the full 2^16)
 * </pre>
 * Examples: members {5, 6, 7, 1000} of one container are the array {@code 01 05 00 06 00 07 00
 * E8 03} (9 bytes; as runs, {@code 03 05 00 02 00 E8 03 00 00}, also 9, and
 * {@link Container#runOptimize()} keeps the array unless runs are strictly smaller); all of
 * 0..65535 is {@code 03 00 00 FF FF}; 5,000 scattered members are a bitmap.
 *
 * <p>Why not RoaringBitmap's portable format: it wraps each container in a header (cookie,
 * container count, key and cardinality, offsets) of 8 to 16 bytes, which is most of the
 * value for the sparse sets where each container holds one member, and decoding it builds a
 * whole {@code RoaringBitmap} around one container. Here a value decodes straight into the
 * {@link Container} that the set algebra combines, and the leading byte leaves room for
 * another representation without rewriting stored values.
 *
 * <p>An empty container is never encoded: the set deletes its key instead.
 */
final class ContainerCodec {
    static final byte ARRAY = 1;
    static final byte BITMAP = 2;
    static final byte RUN = 3;
    /** Words of a bitmap container: 2^16 bits. */
    private static final int WORDS = 1024;
    /** Largest array container; RoaringBitmap turns a larger one into a bitmap. */
    private static final int MAX_ARRAY = 4096;

    private ContainerCodec() {}

    /** The bytes of {@code c}, in whichever of the three forms is smallest. */
    static byte[] encode(Container c) {
        if (c.isEmpty()) {
            throw new IllegalArgumentException("an empty container is deleted, not stored");
        }
        Container best = c.runOptimize();
        if (best instanceof RunContainer run) {
            int runs = run.numberOfRuns();
            ByteBuffer out = ByteBuffer.allocate(1 + 4 * runs).order(ByteOrder.LITTLE_ENDIAN);
            out.put(RUN);
            for (int i = 0; i < runs; i++) {
                out.putChar(run.getValue(i)).putChar(run.getLength(i));
            }
            return out.array();
        }
        if (best instanceof BitmapContainer bitmap) {
            long[] words = new long[WORDS];
            bitmap.copyBitmapTo(words, 0);
            ByteBuffer out = ByteBuffer.allocate(1 + 8 * WORDS).order(ByteOrder.LITTLE_ENDIAN);
            out.put(BITMAP);
            out.asLongBuffer().put(words); // a view from position 1, in the buffer's byte order
            return out.array();
        }
        int n = best.getCardinality();
        ByteBuffer out = ByteBuffer.allocate(1 + 2 * n).order(ByteOrder.LITTLE_ENDIAN);
        out.put(ARRAY);
        for (CharIterator it = best.getCharIterator(); it.hasNext(); ) {
            out.putChar(it.next());
        }
        return out.array();
    }

    /** The container stored as {@code value}; fails on bytes this class did not write. */
    static Container decode(byte[] value) {
        ByteBuffer in = payload(value);
        switch (value[0]) {
            case ARRAY -> {
                // A plain loop: for the one- or two-member containers of sparse sets, making a
                // CharBuffer view costs more than the copy (seen in profiles of sparse algebra).
                return new ArrayContainer(in.remaining() / 2, chars(value));
            }
            case BITMAP -> {
                long[] words = new long[WORDS];
                in.asLongBuffer().get(words);
                int cardinality = 0;
                for (long w : words) {
                    cardinality += Long.bitCount(w);
                }
                return new BitmapContainer(words, cardinality);
            }
            case RUN -> {
                char[] runs = chars(value); // start, length-1, start, length-1, ...
                return new RunContainer(runs, runs.length / 2);
            }
            default -> throw corrupt(value);
        }
    }

    /** Calls {@code action} with each member (low 16 bits) of the container stored as {@code value}, in order. */
    static void forEach(byte[] value, IntConsumer action) {
        if (value.length > 0 && value[0] == ARRAY) {
            payload(value); // validates
            for (int b = 1; b < value.length; b += 2) {
                action.accept((value[b] & 0xFF) | (value[b + 1] & 0xFF) << 8);
            }
            return;
        }
        for (CharIterator it = decode(value).getCharIterator(); it.hasNext(); ) {
            action.accept(it.next());
        }
    }

    /** The little-endian u16 values after the tag byte. */
    private static char[] chars(byte[] value) {
        char[] out = new char[(value.length - 1) / 2];
        for (int i = 0, b = 1; i < out.length; i++, b += 2) {
            out[i] = (char) ((value[b] & 0xFF) | (value[b + 1] & 0xFF) << 8);
        }
        return out;
    }

    /** The number of members in the container stored as {@code value}, without decoding it. */
    static int cardinality(byte[] value) {
        ByteBuffer in = payload(value);
        switch (value[0]) {
            case ARRAY -> {
                return in.remaining() / 2;
            }
            case BITMAP -> {
                int cardinality = 0;
                for (int i = 0; i < WORDS; i++) {
                    cardinality += Long.bitCount(in.getLong(1 + 8 * i));
                }
                return cardinality;
            }
            case RUN -> {
                int cardinality = 0;
                for (int i = 0; i < in.remaining() / 4; i++) {
                    cardinality += in.getChar(3 + 4 * i) + 1;
                }
                return cardinality;
            }
            default -> throw corrupt(value);
        }
    }

    /** Whether the container stored as {@code value} holds {@code low}, without decoding it. */
    static boolean contains(byte[] value, char low) {
        ByteBuffer in = payload(value);
        switch (value[0]) {
            case ARRAY -> {
                int lo = 0;
                int hi = in.remaining() / 2 - 1;
                while (lo <= hi) {
                    int mid = (lo + hi) >>> 1;
                    char v = in.getChar(1 + 2 * mid);
                    if (v < low) {
                        lo = mid + 1;
                    } else if (v > low) {
                        hi = mid - 1;
                    } else {
                        return true;
                    }
                }
                return false;
            }
            case BITMAP -> {
                long word = in.getLong(1 + 8 * (low >>> 6));
                return (word & (1L << low)) != 0;
            }
            case RUN -> {
                int lo = 0;
                int hi = in.remaining() / 4 - 1;
                while (lo <= hi) { // the last run starting at or before low
                    int mid = (lo + hi) >>> 1;
                    if (in.getChar(1 + 4 * mid) <= low) {
                        lo = mid + 1;
                    } else {
                        hi = mid - 1;
                    }
                }
                return hi >= 0 && low - in.getChar(1 + 4 * hi) <= in.getChar(3 + 4 * hi);
            }
            default -> throw corrupt(value);
        }
    }

    /** The payload after the tag byte, after checking that its length fits the tag. */
    private static ByteBuffer payload(byte[] value) {
        int n = value.length - 1;
        boolean ok = n >= 0 && switch (value[0]) {
            case ARRAY -> n >= 2 && n % 2 == 0 && n / 2 <= MAX_ARRAY;
            case BITMAP -> n == 8 * WORDS;
            case RUN -> n >= 4 && n % 4 == 0;
            default -> false;
        };
        if (!ok) {
            throw corrupt(value);
        }
        // Positioned after the tag for bulk views; absolute reads still count from the tag at 0.
        ByteBuffer in = ByteBuffer.wrap(value).order(ByteOrder.LITTLE_ENDIAN);
        in.position(1);
        return in;
    }

    private static IllegalStateException corrupt(byte[] value) {
        return new IllegalStateException("not a roaring set container value (" + value.length + " bytes, tag "
                + (value.length == 0 ? "none" : value[0]) + ")");
    }
}
