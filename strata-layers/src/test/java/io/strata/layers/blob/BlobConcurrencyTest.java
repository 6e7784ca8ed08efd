package io.strata.layers.blob;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.Transaction;
import io.strata.Strata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static io.strata.layers.blob.BlobTestSupport.name;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Readers never see a mix of two values. Writers replace one blob over and over: staged
 * (many transactions, then the switch), whole in one transaction, and rewritten in place
 * under the same id (only the revision tells). Readers read it whole across transactions, as
 * a stream, and as ranges in one transaction. Every value written is {@code content(v, i) =
 * v + 7 i} (bytes, so {@code v} is the byte at offset 0): a chunk of any other value, or a
 * missing chunk read as zeros, breaks the pattern.
 */
class BlobConcurrencyTest {
    private static final int CHUNK = 1_000;

    private final Database db = Strata.inMemory();
    /** Six chunks per transaction: a large value takes 10 to 17 transactions to stage or read. */
    private final BlobStore store = new BlobStore(new Subspace(Tuple.from("cc")),
            BlobSettings.defaults().withChunkSize(CHUNK).withTransactionBytes(6 * (CHUNK + 3 * 24 + 100)));
    private final byte[] name = name("k");

    @AfterEach
    void close() {
        db.close();
    }

    static byte[] content(int v, long offset, int length) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (v + 7 * (offset + i));
        }
        return b;
    }

    /** The {@code v} of the value whose byte at {@code offset} is {@code bytes[0]}. */
    static int versionAt(byte[] bytes, long offset) {
        return bytes.length == 0 ? 0 : (byte) (bytes[0] - 7 * offset);
    }

    /** Records a tear unless {@code bytes}, read from {@code offset}, are all from one value. */
    static void check(AtomicReference<String> tear, byte[] bytes, long offset) {
        check(tear, bytes, offset, versionAt(bytes, offset));
    }

    /** Records a tear unless {@code bytes}, read from {@code offset}, are all from value {@code v}. */
    static void check(AtomicReference<String> tear, byte[] bytes, long offset, int v) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] != (byte) (v + 7 * (offset + i))) {
                tear.compareAndSet(null, "byte " + (offset + i) + " of a " + bytes.length + "-byte read at " + offset
                        + " is not from the value the read started in");
                return;
            }
        }
    }

    @Test
    void readersSeeTheOldOrTheNewValueNeverAMix() throws Exception {
        assertThat(store.bytesPerTransaction()).isEqualTo(6 * CHUNK);
        store.write(db, name, content(0, 0, 80_000)).join();
        AtomicInteger nextVersion = new AtomicInteger(1);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<String> tear = new AtomicReference<>();
        AtomicInteger staged = new AtomicInteger();
        AtomicInteger inPlace = new AtomicInteger();
        AtomicInteger wholeReads = new AtomicInteger();
        AtomicInteger wholeReadsGivenUp = new AtomicInteger();
        AtomicInteger streamReads = new AtomicInteger();
        AtomicInteger streamsInterrupted = new AtomicInteger();
        AtomicInteger rangeReads = new AtomicInteger();

        ExecutorService pool = Executors.newFixedThreadPool(6);
        List<Future<?>> threads = new ArrayList<>();
        // Staged writer: values larger than one transaction.
        threads.add(pool.submit(() -> {
            SplittableRandom random = new SplittableRandom(1);
            while (!stop.get()) {
                byte[] value = content(nextVersion.getAndIncrement(), 0, 60_000 + random.nextInt(40_000));
                store.write(db, name, value).join();
                staged.incrementAndGet();
            }
            return null;
        }));
        // In-transaction writer: small whole values, or the current value rewritten in place at
        // its length (same id, next revision), in one transaction.
        threads.add(pool.submit(() -> {
            SplittableRandom random = new SplittableRandom(2);
            while (!stop.get()) {
                int v = nextVersion.getAndIncrement();
                boolean small = random.nextInt(4) == 0;
                db.run(tr -> {
                    if (small) {
                        store.write(tr, name, content(v, 0, random.nextInt(3_000))).join();
                    } else {
                        long length = store.length(tr, name).join().orElse(0);
                        store.writeAt(tr, name, 0, content(v, 0, (int) length)).join();
                    }
                    return null;
                });
                inPlace.incrementAndGet();
                Thread.sleep(1); // let some spanning reads finish
            }
            return null;
        }));
        threads.add(pool.submit(() -> {
            while (!stop.get()) {
                try {
                    check(tear, store.read(db, name).join(), 0);
                    wholeReads.incrementAndGet();
                } catch (CompletionException e) {
                    assertThat(e).hasCauseInstanceOf(BlobChangedException.class);
                    wholeReadsGivenUp.incrementAndGet();
                }
            }
            return null;
        }));
        threads.add(pool.submit(() -> {
            while (!stop.get()) {
                try (BlobReader in = store.openReader(db, name)) {
                    byte[] buffer = new byte[4_096];
                    long at = 0;
                    Integer v = null;
                    int n;
                    while ((n = in.read(buffer)) >= 0) {
                        byte[] got = Arrays.copyOf(buffer, n);
                        v = v == null ? versionAt(got, at) : v;
                        check(tear, got, at, v);
                        at += n;
                    }
                    streamReads.incrementAndGet();
                } catch (BlobChangedException e) {
                    streamsInterrupted.incrementAndGet();
                }
            }
            return null;
        }));
        threads.add(pool.submit(() -> {
            SplittableRandom random = new SplittableRandom(3);
            while (!stop.get()) {
                long offset = random.nextInt(100_000);
                int length = random.nextInt(3 * CHUNK);
                db.read(tr -> {
                    check(tear, store.read(tr, name, offset, length).join(), offset);
                    return null;
                });
                rangeReads.incrementAndGet();
            }
            return null;
        }));

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline && tear.get() == null
                && (staged.get() < 30 || streamsInterrupted.get() < 3 || streamReads.get() < 3 || wholeReads.get() < 3)) {
            Thread.sleep(10);
        }
        stop.set(true);
        for (Future<?> f : threads) {
            f.get(30, TimeUnit.SECONDS);
        }
        pool.shutdown();
        System.out.printf("BlobConcurrencyTest: %d staged and %d in-transaction writes; %d whole reads (%d gave up), "
                        + "%d streams (%d interrupted by a change), %d range reads%n", staged.get(), inPlace.get(),
                wholeReads.get(), wholeReadsGivenUp.get(), streamReads.get(), streamsInterrupted.get(), rangeReads.get());
        assertThat(tear.get()).as("a reader saw a mix of values").isNull();
        assertThat(staged.get()).isGreaterThanOrEqualTo(30);
        assertThat(streamsInterrupted.get()).as("streams that overlapped a change").isGreaterThanOrEqualTo(3);
        assertThat(streamReads.get()).isGreaterThanOrEqualTo(3);
        assertThat(wholeReads.get()).isGreaterThanOrEqualTo(3);
    }

    @Test
    void aStreamThatOutlivesItsValueFailsRatherThanMix() throws Exception {
        store.write(db, name, content(1, 0, 50_000)).join();
        for (Runnable change : List.<Runnable>of(
                () -> store.write(db, name, content(2, 0, 50_000)).join(),
                () -> db.run(tr -> store.writeAt(tr, name, 10, new byte[] {5}).join()),
                () -> store.delete(db, name).join())) {
            store.write(db, name, content(1, 0, 50_000)).join();
            BlobReader in = store.openReader(db, name);
            byte[] first = in.readNBytes(10_000);
            check(new AtomicReference<>(), first, 0, 1);
            change.run();
            AtomicReference<String> tear = new AtomicReference<>();
            assertThatThrownBy(() -> {
                long at = first.length;
                byte[] buffer = new byte[1_000];
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    check(tear, Arrays.copyOf(buffer, n), at, 1); // still the first value's bytes
                    at += n;
                }
            }).isInstanceOf(BlobChangedException.class);
            assertThat(tear.get()).isNull();
        }
    }

    @Test
    void aWholeReadThatSeesAChangeStartsOverAndReturnsOneValue() {
        store.write(db, name, content(1, 0, 50_000)).join();
        // The value is replaced once, just before the third segment of the first attempt.
        AtomicInteger segments = new AtomicInteger();
        BlobLayout layout = new BlobLayout(store.subspace());
        TransactionBudget budget = new TransactionBudget(store.settings().transactionBytes(), layout.maxChunkKeyBytes());
        SpanningReads spanning = new SpanningReads(new SegmentReads(new BlobReads(layout), budget) {
            @Override
            CompletableFuture<Segment> segment(Database d, byte[] n, BlobHead expected, long offset, long end) {
                if (segments.incrementAndGet() == 3) {
                    store.write(db, name, content(2, 0, 40_000)).join();
                }
                return super.segment(d, n, expected, offset, end);
            }
        });
        byte[] got = spanning.read(db, name, 0, Long.MAX_VALUE).join();
        assertThat(got).isEqualTo(content(2, 0, 40_000));
        assertThat(segments.get()).as("three segments of the first attempt, then the whole second").isEqualTo(3 + 7);
    }

    @Test
    void concurrentChangesOfOneBlobConflictAndOfTwoBlobsDoNot() {
        store.write(db, name, content(1, 0, 10)).join();
        store.write(db, name("other"), content(1, 0, 10)).join();
        try (Transaction a = db.createTransaction(); Transaction b = db.createTransaction();
             Transaction c = db.createTransaction()) {
            store.append(a, name, new byte[] {1}).join();
            store.writeAt(b, name, 3, new byte[] {2}).join();
            store.truncate(c, name("other"), 4).join();
            a.commit().join();
            c.commit().join();
            assertThatThrownBy(() -> b.commit().join()).hasCauseInstanceOf(FDBException.class)
                    .satisfies(e -> assertThat(((FDBException) e.getCause()).getCode()).isEqualTo(1020));
        }
        assertThat(store.length(db, name).join()).hasValue(11);
        assertThat(store.length(db, name("other")).join()).hasValue(4);
    }

    @Test
    void concurrentAppendsAreSerialized() throws Exception {
        int threads = 4;
        int appends = 40;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            byte marker = (byte) (t + 1);
            futures.add(pool.submit(() -> {
                for (int i = 0; i < appends; i++) {
                    byte[] piece = new byte[CHUNK / 3 + i]; // pieces that straddle chunk boundaries
                    Arrays.fill(piece, marker);
                    db.run(tr -> store.append(tr, name, piece).join());
                }
                return null;
            }));
        }
        for (Future<?> f : futures) {
            f.get(30, TimeUnit.SECONDS);
        }
        pool.shutdown();
        byte[] value = store.read(db, name).join();
        long expectedLength = (long) threads * (appends * (CHUNK / 3) + appends * (appends - 1) / 2);
        assertThat(value).hasSize((int) expectedLength);
        // Each append is one run of its marker: split the value into runs and check their lengths.
        int[] seen = new int[threads];
        int at = 0;
        while (at < value.length) {
            byte marker = value[at];
            int t = marker - 1;
            int expectedRun = CHUNK / 3 + seen[t];
            for (int i = 0; i < expectedRun; i++) {
                assertThat(value[at + i]).as("append %d of thread %d", seen[t], t).isEqualTo(marker);
            }
            at += expectedRun;
            seen[t]++;
        }
        assertThat(seen).containsOnly(appends);
    }
}
