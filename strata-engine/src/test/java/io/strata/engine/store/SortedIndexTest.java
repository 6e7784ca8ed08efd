package io.strata.engine.store;

import io.strata.engine.util.ByteKeys;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NavigableMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

class SortedIndexTest {
    /** Keys of varied lengths whose order is not the numbers' order, to exercise comparisons. */
    private static byte[] key(int n) {
        String s = Integer.toString(n, 7);
        return (s.length() % 2 == 0 ? "k" + s : "k" + s + "/x").getBytes();
    }

    /**
     * Key {@code n} in one of four shapes: 0 short text keys; 1 the same after eight shared
     * bytes, so inner nodes' eight-byte prefixes never decide; 2 a scrambled number with the
     * high bit set in the first byte, four or twelve bytes long, inserted in random order; 3
     * the short keys after a long shared prefix, or after the first 0 to 19 of its bytes (a
     * layer's keys, some in a parent subspace), so that nodes' shared bytes grow and shrink.
     */
    private static byte[] key(int n, int shape) {
        if (shape == 0) {
            return key(n);
        }
        if (shape == 3) {
            byte[] prefix = "\u0015\u0005o\u0000\u0001zset:0000000r\u0014".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
            int shared = n % 3 == 0 ? n % 20 : prefix.length;
            byte[] k = key(n);
            byte[] out = java.util.Arrays.copyOf(prefix, shared + k.length);
            System.arraycopy(k, 0, out, shared, k.length);
            return out;
        }
        if (shape == 1) {
            byte[] k = key(n);
            byte[] out = new byte[8 + k.length];
            java.util.Arrays.fill(out, 0, 8, (byte) 0x7F);
            System.arraycopy(k, 0, out, 8, k.length);
            return out;
        }
        int scrambled = (n * 0x9E3779B1) ^ 0x80000000; // a bijection: distinct n, distinct keys
        java.nio.ByteBuffer out = java.nio.ByteBuffer.allocate(n % 2 == 0 ? 4 : 12).putInt(scrambled);
        if (n % 2 == 1) {
            out.putLong(n);
        }
        return out.array();
    }

    private static VersionChain chain(byte[] key) {
        return new VersionChain(key, ByteKeys.hash(key), 1, new byte[] {1});
    }

    private static List<byte[]> keysOf(Iterator<VersionChain> it) {
        List<byte[]> out = new ArrayList<>();
        it.forEachRemaining(c -> out.add(c.key));
        return out;
    }

    private static List<byte[]> keysOf(NavigableMap<byte[], VersionChain> m) {
        return new ArrayList<>(m.keySet());
    }

    /**
     * Inserts and removes in any order, through leaf and inner splits, unlinking emptied
     * nodes: point and range answers, in both directions, match a TreeMap.
     */
    @Property(tries = 90)
    void answersLikeASortedMap(@ForAll @Size(max = 6000) List<@IntRange(min = 0, max = 9999) Integer> ops,
                               @ForAll @IntRange(min = 0, max = 4999) int a, @ForAll @IntRange(min = 0, max = 4999) int b,
                               @ForAll @IntRange(min = 0, max = 3) int shape) {
        SortedIndex index = new SortedIndex();
        TreeMap<byte[], VersionChain> model = new TreeMap<>(ByteKeys.COMPARATOR);
        for (int op : ops) {
            byte[] k = key(op / 2, shape);
            if (op % 2 == 0 && !model.containsKey(k)) {
                VersionChain c = chain(k);
                index.insert(c);
                model.put(k, c);
            } else if (op % 2 == 1 && model.containsKey(k)) {
                assertThat(index.remove(model.remove(k))).isTrue();
            }
        }
        for (int i = 0; i < 5000; i += 7) {
            assertThat(index.get(key(i, shape))).isSameAs(model.get(key(i, shape)));
        }
        byte[] lo = ByteKeys.min(key(a, shape), key(b, shape));
        byte[] hi = ByteKeys.max(key(a, shape), key(b, shape));
        assertThat(keysOf(index.ascending(lo, hi))).containsExactlyElementsOf(keysOf(model.subMap(lo, true, hi, false)));
        assertThat(keysOf(index.descending(lo, hi)))
                .containsExactlyElementsOf(keysOf(model.subMap(lo, true, hi, false).descendingMap()));
        byte[] all = new byte[13]; // past every key of every shape
        java.util.Arrays.fill(all, (byte) 0xFF);
        assertThat(keysOf(index.ascending(new byte[0], all))).containsExactlyElementsOf(keysOf(model));
        assertThat(keysOf(index.descending(new byte[0], all))).containsExactlyElementsOf(keysOf(model.descendingMap()));
    }

    /**
     * Several writers' runs of ascending keys, interleaved (a sequencer batch of interning
     * clients): each run appends past the last key of the leaf the previous run left the
     * finger on, and must go elsewhere whenever that is beyond the finger leaf's upper bound.
     */
    @Property(tries = 30)
    void interleavedAscendingRunsLandInOrder(@ForAll @IntRange(min = 2, max = 6) int writers,
                                             @ForAll @IntRange(min = 1, max = 300) int run) {
        SortedIndex index = new SortedIndex();
        TreeMap<byte[], VersionChain> model = new TreeMap<>(ByteKeys.COMPARATOR);
        int[] next = new int[writers];
        for (int round = 0; round < 4_000 / run; round++) {
            int w = round % writers;
            for (int i = 0; i < run; i++) {
                byte[] k = ("w" + w + "/" + next[w]++).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                VersionChain c = chain(k);
                index.insert(c);
                model.put(k, c);
            }
        }
        byte[] all = new byte[] {(byte) 0xFF};
        assertThat(keysOf(index.ascending(new byte[0], all))).containsExactlyElementsOf(keysOf(model));
        for (byte[] k : model.keySet()) {
            assertThat(index.get(k)).isSameAs(model.get(k));
        }
    }

    @Test
    void appendedKeysFillLeavesAndEmptyingEverythingLeavesAnEmptyTree() {
        SortedIndex index = new SortedIndex();
        List<VersionChain> chains = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            VersionChain c = chain(ByteBuffer.allocate(4).putInt(i).array());
            index.insert(c);
            chains.add(c);
        }
        assertThat(keysOf(index.ascending(new byte[0], new byte[] {(byte) 0xFF}))).hasSize(100_000);
        for (VersionChain c : chains) {
            assertThat(index.remove(c)).isTrue();
        }
        assertThat(index.ascending(new byte[0], new byte[] {(byte) 0xFF}).hasNext()).isFalse();
        VersionChain again = chain(new byte[] {1});
        index.insert(again);
        assertThat(index.get(new byte[] {1})).isSameAs(again);
    }

    /**
     * One writer inserts (in runs, as layers do, and at random) and removes keys that readers
     * never ask about, while readers scan ranges and look keys up: every key inserted before a
     * reader began and never removed is seen, once, in order.
     */
    @Test
    void readersSeeEveryKeyInsertedBeforeThemWhileTheWriterSplitsAndUnlinks() throws Exception {
        SortedIndex index = new SortedIndex();
        int total = 200_000;
        int[] order = new int[total];
        SplittableRandom shuffle = new SplittableRandom(42);
        for (int i = 0; i < total; i++) {
            order[i] = i;
        }
        for (int i = total - 1; i > 0; i -= 1 + shuffle.nextInt(200)) { // runs of ascending keys, shuffled
            int j = shuffle.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        int[] insertedAt = new int[total];
        for (int i = 0; i < total; i++) {
            insertedAt[order[i]] = i;
        }
        AtomicLong published = new AtomicLong(-1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> readers = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            SplittableRandom random = new SplittableRandom(r);
            boolean descending = r == 1;
            Thread t = new Thread(() -> {
                try {
                    while (published.get() < total - 1) {
                        long p = published.get();
                        int from = random.nextInt(total);
                        int to = Math.min(total, from + random.nextInt(3000));
                        Iterator<VersionChain> it = descending ? index.descending(stable(from), stable(to))
                                                               : index.ascending(stable(from), stable(to));
                        List<Integer> seen = new ArrayList<>();
                        it.forEachRemaining(c -> {
                            if (c.key.length == 5) {
                                seen.add(ByteBuffer.wrap(c.key, 1, 4).getInt());
                            }
                        });
                        int expected = descending ? to - 1 : from;
                        int step = descending ? -1 : 1;
                        int s = 0;
                        for (int k = expected; descending ? k >= from : k < to; k += step) {
                            if (insertedAt[k] <= p) {
                                while (s < seen.size() && seen.get(s) != k) {
                                    if (insertedAt[seen.get(s)] <= p) {
                                        throw new AssertionError("out of order at " + seen.get(s));
                                    }
                                    s++;
                                }
                                if (s == seen.size()) {
                                    throw new AssertionError("key " + k + " inserted before the scan is missing");
                                }
                                s++;
                            }
                        }
                        int k = random.nextInt(total);
                        if (insertedAt[k] <= p && index.get(stable(k)) == null) {
                            throw new AssertionError("point read missed key " + k);
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            t.start();
            readers.add(t);
        }
        List<VersionChain> transients = new ArrayList<>();
        for (int i = 0; i < total; i++) {
            index.insert(chain(stable(order[i])));
            VersionChain tr = chain(java.util.Arrays.copyOf(stable(order[i]), 6)); // right after a stable key
            index.insert(tr);
            transients.add(tr);
            if (transients.size() > 50) {
                index.remove(transients.remove(0));
            }
            published.set(i);
        }
        for (Thread t : readers) {
            t.join();
        }
        assertThat(failure.get()).isNull();
    }

    /**
     * The writer fills a region of keys and empties it again, over and over, so that leaves and
     * then whole inner nodes are unlinked, while readers scan across it and read the keys of a
     * region that never changes: those are always all there, and no reader ever meets a node
     * that is half unlinked.
     */
    @Test
    void readersAreUndisturbedWhileWholeSubtreesEmptyAndGo() throws Exception {
        SortedIndex index = new SortedIndex();
        for (int i = 0; i < 2_000; i++) {
            index.insert(chain(tagged('a', i)));
            index.insert(chain(tagged('c', i)));
        }
        int rounds = 40;
        AtomicLong done = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> readers = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            boolean descending = r == 1;
            SplittableRandom random = new SplittableRandom(r);
            Thread t = new Thread(() -> {
                try {
                    while (done.get() == 0) {
                        Iterator<VersionChain> it = descending ? index.descending(tagged('a', 1_500), tagged('c', 500))
                                                               : index.ascending(tagged('a', 1_500), tagged('c', 500));
                        int stable = 0;
                        while (it.hasNext()) {
                            byte tag = it.next().key[0];
                            if (tag != 'b') {
                                stable++;
                            }
                        }
                        if (stable != 1_000) {
                            throw new AssertionError("saw " + stable + " of the 1,000 keys that never change");
                        }
                        int k = random.nextInt(2_000);
                        if (index.get(tagged('a', k)) == null || index.get(tagged('c', k)) == null) {
                            throw new AssertionError("point read missed a key that never changes: " + k);
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            t.start();
            readers.add(t);
        }
        for (int round = 0; round < rounds && failure.get() == null; round++) {
            List<VersionChain> churn = new ArrayList<>();
            for (int i = 0; i < 20_000; i++) {
                VersionChain c = chain(tagged('b', i));
                index.insert(c);
                churn.add(c);
            }
            if (round % 2 == 1) {
                java.util.Collections.reverse(churn);
            }
            for (VersionChain c : churn) {
                assertThat(index.remove(c)).isTrue();
            }
        }
        done.set(1);
        for (Thread t : readers) {
            t.join();
        }
        assertThat(failure.get()).isNull();
    }

    /** {@code tag} + 4 bytes big-endian. */
    private static byte[] tagged(char tag, int n) {
        return ByteBuffer.allocate(5).put((byte) tag).putInt(n).array();
    }

    /** "s" + 4 bytes big-endian: ordered like the numbers. */
    private static byte[] stable(int n) {
        return ByteBuffer.allocate(5).put((byte) 's').putInt(n).array();
    }

}
