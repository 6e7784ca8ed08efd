package io.strata.redis.eviction;

import com.apple.foundationdb.KeySelector;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.Range;
import com.apple.foundationdb.ReadTransaction;
import io.strata.redis.command.AccessClock;
import io.strata.redis.keyspace.KeyStore;
import io.strata.redis.keyspace.Keyspace;
import io.strata.redis.keyspace.RandomProbe;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Chooses the keys to evict, as Redis's {@code evictionPoolPopulate} does: for the LRU, LFU and
 * TTL policies, every database (or, for the {@code volatile-} policies, every keyspace's expiry
 * index) gives {@code maxmemory-samples} keys, and a pool keeps the {@value #POOL} best seen so
 * far, best first; the random policies take one random key, from a database chosen in
 * proportion to its keys.
 *
 * <p>Samples for LRU and LFU are the next keys of a sweep through the metadata range (or the
 * expiry index) that goes on where the last one stopped, as a CLOCK hand does, so that every
 * key is looked at once per pass and a sample costs one range read (Redis takes the entries of
 * consecutive buckets of its hash table, {@code dictGetSomeKeys}). {@code volatile-ttl} takes
 * the index's first entries — the keys whose expiry comes first — which is what Redis's
 * sampling approximates. A random policy's key follows a random point of the key space: keys
 * of one shape come out about evenly, a key after a wide gap more often (as RANDOMKEY).
 *
 * <p>Reads are snapshot reads of the evicting transaction: choosing conflicts with nothing.
 * The pool may hold keys gone since they were sampled; the evictor checks each before it
 * deletes it. Not thread-safe: the evictor's one thread uses it.
 */
final class EvictionCandidates {
    /** Redis's {@code EVPOOL_SIZE}. */
    static final int POOL = 16;

    /** A key that may be evicted; the higher its score, the sooner. */
    record Candidate(KeyStore keys, int db, byte[] key, long score) {
        boolean sameKey(Candidate o) {
            return keys == o.keys && db == o.db && Arrays.equals(key, o.key);
        }
    }

    /** Where keys may be chosen: a database of a keyspace, with how many keys (or keys with an expiry) it has. */
    record Source(KeyStore keys, int db, long count) {
    }

    /** Where a sweep goes on: a database's metadata ({@code db >= 0}) or a keyspace's expiry index ({@code -1}). */
    private record Cursor(KeyStore keys, int db) {
    }

    private final AccessClock accessClock;
    /** Where each sweep stopped: the last key it read. */
    private final java.util.Map<Cursor, byte[]> cursors = new java.util.HashMap<>();
    /** Ascending by score: the best is last. */
    private final List<Candidate> pool = new ArrayList<>(POOL);

    EvictionCandidates(AccessClock accessClock) {
        this.accessClock = accessClock;
    }

    /** Forgets the pool (the policy changed). */
    void clear() {
        pool.clear();
        cursors.clear();
    }

    /**
     * The next key to evict under {@code policy} from {@code sources} (for a {@code volatile-}
     * policy one per keyspace, any database), or null when they hold none.
     */
    Candidate next(ReadTransaction snap, EvictionPolicy policy, int samples, List<Source> sources, long now) {
        if (sources.isEmpty()) {
            return null;
        }
        if (policy.order() == EvictionPolicy.Order.RANDOM) {
            return random(snap, policy, sources);
        }
        for (Source s : sources) {
            List<KeyValue> sampled;
            Keyspace keyspace = s.keys().keyspace();
            if (policy.order() == EvictionPolicy.Order.TTL) {
                sampled = snap.getRange(keyspace.expiryIndex(), samples).asList().join();
            } else if (policy.volatileOnly()) {
                sampled = sweep(snap, new Cursor(s.keys(), -1), keyspace.expiryIndex(), samples);
            } else {
                sampled = sweep(snap, new Cursor(s.keys(), s.db()), keyspace.metaRange(s.db()), samples);
            }
            for (KeyValue kv : sampled) {
                offer(candidate(s, policy, kv.getKey(), now));
            }
        }
        return pool.isEmpty() ? null : pool.remove(pool.size() - 1);
    }

    private Candidate candidate(Source s, EvictionPolicy policy, byte[] rangeKey, long now) {
        Keyspace keyspace = s.keys().keyspace();
        int db = s.db();
        byte[] key;
        long expireAt = 0;
        if (policy.volatileOnly()) {
            Keyspace.ExpiryEntry e = keyspace.expiryEntry(rangeKey);
            db = e.db();
            key = e.key();
            expireAt = e.atMillis();
        } else {
            key = keyspace.keyOfMeta(rangeKey);
        }
        long score = switch (policy.order()) {
            case LRU -> accessClock.idleSeconds(s.keys(), db, key, now);
            case LFU -> 255 - accessClock.frequency(s.keys(), db, key, now);
            case TTL -> Long.MAX_VALUE - expireAt;
            default -> 0;
        };
        return new Candidate(s.keys(), db, key, score);
    }

    /** Adds {@code c} to the pool unless it is there already or worse than a full pool's every entry. */
    private void offer(Candidate c) {
        for (Candidate p : pool) {
            if (p.sameKey(c)) {
                return;
            }
        }
        int at = 0;
        while (at < pool.size() && pool.get(at).score() <= c.score()) {
            at++;
        }
        if (pool.size() == POOL) {
            if (at == 0) {
                return;
            }
            pool.remove(0);
            at--;
        }
        pool.add(at, c);
    }

    /** A random key: a source drawn in proportion to its count, then the first key at or after a random point of it. */
    private Candidate random(ReadTransaction snap, EvictionPolicy policy, List<Source> sources) {
        long total = 0;
        for (Source s : sources) {
            total += s.count();
        }
        long draw = total <= 0 ? 0 : ThreadLocalRandom.current().nextLong(total);
        Source chosen = sources.get(sources.size() - 1);
        for (Source s : sources) {
            if (draw < s.count()) {
                chosen = s;
                break;
            }
            draw -= s.count();
        }
        Keyspace keyspace = chosen.keys().keyspace();
        List<KeyValue> one = sample(snap, policy.volatileOnly() ? keyspace.expiryIndex() : keyspace.metaRange(chosen.db()), 1);
        return one.isEmpty() ? null : candidate(chosen, policy, one.get(0).getKey(), 0);
    }

    /**
     * The next {@code count} entries of {@code range} after where the last sweep of
     * {@code cursor} stopped, wrapping to its start: every key is sampled once per pass, as a
     * CLOCK hand passes every page, whatever the gaps between keys (a random point of the key
     * space would land after wide gaps more often).
     */
    private List<KeyValue> sweep(ReadTransaction snap, Cursor cursor, Range range, int count) {
        byte[] after = cursors.get(cursor);
        List<KeyValue> out = new ArrayList<>(count);
        if (after != null) {
            out.addAll(snap.getRange(KeySelector.firstGreaterThan(after), KeySelector.firstGreaterOrEqual(range.end), count)
                    .asList().join());
        }
        if (out.size() < count) {
            for (KeyValue kv : snap.getRange(KeySelector.firstGreaterOrEqual(range.begin),
                    KeySelector.firstGreaterOrEqual(after != null ? after : range.end), count - out.size()).asList().join()) {
                out.add(kv);
            }
        }
        if (!out.isEmpty()) {
            cursors.put(cursor, out.get(out.size() - 1).getKey());
        }
        return out;
    }

    /** Up to {@code count} consecutive entries of {@code range} from a random point of it, wrapping to its start. */
    private static List<KeyValue> sample(ReadTransaction snap, Range range, int count) {
        List<KeyValue> first = snap.getRange(range, 1).asList().join();
        if (first.isEmpty()) {
            return first;
        }
        List<KeyValue> last = snap.getRange(range, 1, true).asList().join();
        byte[] probe = RandomProbe.between(first.get(0).getKey(), last.get(0).getKey());
        List<KeyValue> out = new ArrayList<>(snap.getRange(KeySelector.firstGreaterOrEqual(probe),
                KeySelector.firstGreaterOrEqual(range.end), count).asList().join());
        if (out.size() < count) {
            for (KeyValue kv : snap.getRange(KeySelector.firstGreaterOrEqual(range.begin),
                    KeySelector.firstGreaterOrEqual(probe), count - out.size()).asList().join()) {
                out.add(kv);
            }
        }
        return out;
    }
}
