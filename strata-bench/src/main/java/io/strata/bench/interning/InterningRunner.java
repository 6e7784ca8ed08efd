package io.strata.bench.interning;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.MvccWindow;
import io.strata.Strata;
import io.strata.bench.run.ClientPriority;
import io.strata.bench.run.ClosedLoop;
import io.strata.engine.fault.LatencyModel;
import io.strata.layers.interning.StringInterner;
import io.strata.layers.interning.UnfitVersionstampException;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.SplittableRandom;

/**
 * Runs one cell on a fresh in-memory engine (with added latency if asked), in two timed
 * phases of {@link ClosedLoop}:
 * <ol>
 *   <li><b>Intern:</b> {@code concurrency} clients, each interning batches of {@code batch}
 *       strings it never sent before (URI-like, about 50 bytes:
 *       {@code at://did:plc:<client>/app.bsky.feed.post/<n>}), one transaction per batch, with
 *       FoundationDB's retry idiom written out so retries can be counted: {@code stage},
 *       {@code commit}, and on an error {@code tr.onError(e)}; with versionstamp IDs an
 *       unfit stamp after the commit is one more retry in a new transaction.</li>
 *   <li><b>Lookup:</b> after a full collection (the interned strings leave the young
 *       generation, a cost of the intern phase), the same number of clients, each calling the Database-level
 *       {@code findAll} (one read-only, never-committed transaction per batch) on {@code batch} strings drawn
 *       at random from those interned in phase 1 (at most {@value #KNOWN_CAP} kept); every
 *       answer is checked against the ID the intern returned.</li>
 * </ol>
 */
final class InterningRunner {
    /** Known strings kept for the lookup phase: enough to defeat caches of lower levels, small enough for the heap. */
    static final int KNOWN_CAP = 200_000;
    /**
     * Retries after which a batch is abandoned (with onError's backoff, up to 1 s each, about 15 s): the HCA with large batches and many clients
     * livelocks (every transaction examines hundreds of candidates of one window, so every
     * pair of them conflicts), and a benchmark must end.
     */
    static final int MAX_RETRIES = 20;

    /** A batch abandoned after {@link #MAX_RETRIES} retries: a throughput outcome, not a wrong answer. */
    static final class GaveUpException extends RuntimeException {
        GaveUpException(String message) {
            super(message);
        }
    }

    private InterningRunner() {}

    /**
     * @param latency     added latency of the engine ({@code LatencyModel.none()} for full speed)
     * @param latencyName its name: {@code none} adds nothing to the allocator column, others
     *                    add {@code @name}
     * @param priority    of the client threads of both phases
     * @param window      how long the engine keeps old versions
     */
    static InterningResult run(String name, InternerRegistry.Factory factory, int cacheCapacity, int batch,
                               int concurrency, LatencyModel latency, String latencyName, Duration warmup, Duration measure,
                               ClientPriority priority, MvccWindow window) {
        try (Database db = Strata.builder().latency(latency).mvccWindow(window).inMemory()) {
            StringInterner interner = factory.create(new Subspace(Tuple.from("intern")), cacheCapacity);
            int keepPerClient = Math.max(1, KNOWN_CAP / concurrency);
            List<Interning> interning = new ArrayList<>();
            for (int i = 0; i < concurrency; i++) {
                interning.add(new Interning(db, interner, batch, i, keepPerClient));
            }
            ClosedLoop.Result in = ClosedLoop.run(interning, warmup, measure, "bench-interning-client", priority);
            report(name, "intern", in);
            List<byte[]> known = new ArrayList<>();
            List<Long> knownIds = new ArrayList<>();
            for (Interning c : interning) {
                for (int k = 0; k < c.kept; k++) {
                    known.add(c.keptStrings[k]);
                    knownIds.add(c.keptIds[k]);
                }
            }
            long errors = in.errors();
            long abandoned = 0;
            long suspect = 0;
            for (Interning c : interning) {
                abandoned += c.gaveUp;
                suspect += c.failed;
            }
            long lookups = 0;
            double lookupSeconds = 0;
            if (!known.isEmpty()) {
                List<Lookup> lookup = new ArrayList<>();
                for (int i = 0; i < concurrency; i++) {
                    lookup.add(new Lookup(db, interner, batch, known, knownIds, i));
                }
                // The strings just interned sit in the young generation; the collection that
                // moves them out is the intern phase's cost, not the lookups'.
                System.gc();
                ClosedLoop.Result look = ClosedLoop.run(lookup, warmup, measure, "bench-lookup-client", priority);
                report(name, "lookup", look);
                errors += look.errors();
                suspect += look.errors();
                for (Lookup l : lookup) {
                    errors += l.wrong;
                    suspect += l.wrong;
                }
                lookups = look.operations() * batch;
                lookupSeconds = look.seconds();
            }
            String column = name + (cacheCapacity > 0 ? "+cache" : "") + (latencyName.equals("none") ? "" : "@" + latencyName);
            return new InterningResult(column, batch, concurrency,
                    in.operations() * batch, in.seconds(), in.retries(), lookups, lookupSeconds, errors, abandoned, suspect);
        }
    }

    private static void report(String name, String phase, ClosedLoop.Result r) {
        if (r.firstError() != null) {
            System.err.println("strata bench interning: " + name + " " + phase + ": " + r.firstError());
        }
    }

    /** One interning client: fresh strings in batches, its own retry loop. */
    private static final class Interning implements ClosedLoop.Operation {
        final Database db;
        final StringInterner interner;
        final byte[] prefix;
        final int batch;
        final byte[][] keptStrings;
        final long[] keptIds;
        int kept;
        /** Batches abandoned after {@link #MAX_RETRIES} retries, in any phase. */
        long gaveUp;
        /** Batches that failed with an error that must not be retried, in any phase. */
        long failed;
        long next;

        Interning(Database db, StringInterner interner, int batch, int client, int keep) {
            this.db = db;
            this.interner = interner;
            this.batch = batch;
            this.prefix = ("at://did:plc:" + Long.toString(new SplittableRandom(client).nextLong() >>> 4, 32) + "-" + client
                    + "/app.bsky.feed.post/").getBytes(StandardCharsets.US_ASCII);
            this.keptStrings = new byte[keep][];
            this.keptIds = new long[keep];
        }

        @Override
        public int run() {
            List<byte[]> strings = new ArrayList<>(batch);
            for (int i = 0; i < batch; i++) {
                strings.add(withNumber(prefix, next++));
            }
            int retries = 0;
            Transaction tr = db.createTransaction();
            try {
                while (true) {
                    try {
                        StringInterner.Staged staged = interner.stage(tr, strings).join();
                        tr.commit().join();
                        long[] ids = staged.ids().join();
                        keep(strings, ids);
                        return retries;
                    } catch (RuntimeException e) {
                        Throwable cause = ClosedLoop.unwrap(e);
                        if (cause instanceof GaveUpException) {
                            throw (GaveUpException) cause;
                        }
                        if (++retries > MAX_RETRIES) {
                            gaveUp++;
                            throw new GaveUpException("a batch of " + batch + " gave up after " + MAX_RETRIES
                                    + " retries (last: " + cause + ")");
                        }
                        if (cause instanceof UnfitVersionstampException) {
                            tr.close();
                            tr = db.createTransaction(); // committed: intern again to replace
                        } else {
                            try {
                                tr = tr.onError(cause).join(); // rethrows what must not be retried
                            } catch (RuntimeException fatal) {
                                failed++;
                                throw fatal;
                            }
                        }
                    }
                }
            } finally {
                tr.close();
            }
        }

        /** Keeps a sample of what this client interned, replacing old entries round-robin. */
        private void keep(List<byte[]> strings, long[] ids) {
            for (int i = 0; i < strings.size(); i++) {
                int slot = kept < keptStrings.length ? kept++ : (int) ((next + i) % keptStrings.length);
                keptStrings[slot] = strings.get(i);
                keptIds[slot] = ids[i];
            }
        }
    }

    /** One lookup client: Database-level findAll of known strings; wrong answers counted. */
    private static final class Lookup implements ClosedLoop.Operation {
        final Database db;
        final StringInterner interner;
        final int batch;
        final List<byte[]> known;
        final List<Long> knownIds;
        final SplittableRandom random;
        long wrong;

        Lookup(Database db, StringInterner interner, int batch, List<byte[]> known, List<Long> knownIds, int client) {
            this.db = db;
            this.interner = interner;
            this.batch = batch;
            this.known = known;
            this.knownIds = knownIds;
            this.random = new SplittableRandom(client * 7919L + 1);
        }

        @Override
        public int run() {
            int[] picks = new int[batch];
            List<byte[]> strings = new ArrayList<>(batch);
            for (int i = 0; i < batch; i++) {
                picks[i] = random.nextInt(known.size());
                strings.add(known.get(picks[i]));
            }
            List<OptionalLong> found = interner.findAll(db, strings).join();
            for (int i = 0; i < batch; i++) {
                OptionalLong f = found.get(i);
                if (f.isEmpty() || f.getAsLong() != knownIds.get(picks[i])) {
                    wrong++;
                }
            }
            return 0;
        }
    }

    /** {@code prefix} followed by {@code n} in decimal. */
    static byte[] withNumber(byte[] prefix, long n) {
        int digits = 1;
        for (long v = n; v >= 10; v /= 10) {
            digits++;
        }
        byte[] out = new byte[prefix.length + digits];
        System.arraycopy(prefix, 0, out, 0, prefix.length);
        long v = n;
        for (int i = out.length - 1; i >= prefix.length; i--) {
            out[i] = (byte) ('0' + v % 10);
            v /= 10;
        }
        return out;
    }
}
