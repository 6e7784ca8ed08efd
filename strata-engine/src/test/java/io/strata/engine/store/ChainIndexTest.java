package io.strata.engine.store;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

class ChainIndexTest {
    private static final byte[] V = {1};

    private static byte[] key(long n) {
        return ByteBuffer.allocate(9).put((byte) 0x15).putLong(n).array();
    }

    @Test
    void findsWhatItCreatedAndForgetsWhatItRemoved() {
        ChainIndex index = new ChainIndex();
        VersionChain a = index.getOrCreate(key(1), 1, V);
        assertThat(index.getOrCreate(key(1), 1, V)).isSameAs(a);
        assertThat(index.get(key(1))).isSameAs(a);
        assertThat(index.get(key(2))).isNull();
        assertThat(index.remove(a)).isTrue();
        assertThat(index.remove(a)).isFalse();
        assertThat(index.get(key(1))).isNull();
        VersionChain again = index.getOrCreate(key(1), 1, V);
        assertThat(again).isNotSameAs(a);
        assertThat(index.size()).isEqualTo(1);
    }

    @Test
    void theEmptyKeyIsAKeyLikeAnyOther() {
        ChainIndex index = new ChainIndex();
        VersionChain empty = index.getOrCreate(new byte[0], 1, V);
        assertThat(index.get(new byte[0])).isSameAs(empty);
        assertThat(index.remove(empty)).isTrue();
        assertThat(index.get(new byte[0])).isNull();
    }

    /** Any sequence of creates and removes answers like a HashMap, through growth and marker reuse. */
    @Property(tries = 50)
    void behavesLikeAMap(@ForAll @Size(max = 3000) List<@IntRange(min = 0, max = 1500) Integer> ops) {
        ChainIndex index = new ChainIndex();
        Map<Integer, VersionChain> model = new HashMap<>();
        for (int op : ops) {
            int k = op / 2;
            if (op % 2 == 0) {
                VersionChain c = index.getOrCreate(key(k), 1, V);
                VersionChain expected = model.computeIfAbsent(k, x -> c);
                assertThat(c).isSameAs(expected);
            } else {
                VersionChain c = model.remove(k);
                if (c != null) {
                    assertThat(index.remove(c)).isTrue();
                }
            }
        }
        assertThat(index.size()).isEqualTo(model.size());
        for (int k = 0; k <= 750; k++) {
            assertThat(index.get(key(k))).isSameAs(model.get(k));
        }
    }

    /**
     * One writer creates keys (growing the table many times) and removes others while
     * readers look up keys created earlier and never removed: those are always found, and
     * whatever is found is the key asked for.
     */
    @Test
    void readersNeverMissAKeyCreatedBeforeTheyLooked() throws Exception {
        ChainIndex index = new ChainIndex();
        int total = 400_000;
        AtomicLong published = new AtomicLong(-1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> readers = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            SplittableRandom random = new SplittableRandom(r);
            Thread t = new Thread(() -> {
                try {
                    while (published.get() < total - 1) {
                        long p = published.get();
                        if (p < 0) {
                            continue;
                        }
                        long k = random.nextLong(p + 1);
                        VersionChain c = index.get(key(k));
                        if (k % 3 != 0 && c == null) {
                            throw new AssertionError("key " + k + " created before the look-up was not found");
                        }
                        if (c != null && !java.util.Arrays.equals(c.key, key(k))) {
                            throw new AssertionError("looked up " + k + ", found another key");
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            t.start();
            readers.add(t);
        }
        List<VersionChain> removable = new ArrayList<>();
        for (int k = 0; k < total; k++) {
            VersionChain c = index.getOrCreate(key(k), 1, V);
            if (k % 3 == 0) {
                removable.add(c);
            }
            if (removable.size() > 100) {
                index.remove(removable.remove(0)); // keys divisible by 3 come and go
            }
            published.set(k);
        }
        for (Thread t : readers) {
            t.join();
        }
        assertThat(failure.get()).isNull();
    }
}
