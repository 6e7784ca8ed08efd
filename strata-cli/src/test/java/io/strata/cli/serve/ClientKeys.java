package io.strata.cli.serve;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol.Command;

/**
 * What one load client's own keys hold: the model {@link CrashUnderLoadTest} keeps of them
 * as the client sends its commands, and what a recovered server shows of them
 * ({@link #read}). Only that client writes these keys, and one connection's commands run in
 * the order sent, so after a crash the server must show the model after some prefix of the
 * commands sent — at least every acknowledged one — and the test finds which by replaying.
 *
 * <p>Key layout, for client {@code n}: {@code c<n>:set} and {@code c<n>:moved} (sets; a
 * MULTI block moves members from the first to the second), {@code c<n>:list} (LPUSH/RPOP),
 * {@code c<n>:hash} (HSET on {@code f*} fields, HINCRBY on {@code n*} fields),
 * {@code c<n>:zset} (ZADD/ZINCRBY, integer scores so doubles are exact), {@code c<n>:append}
 * (APPEND), {@code c<n>:stream} (XADD with explicit IDs and an exact MAXLEN) and the strings {@code c<n>:str:<i>} (SET with or without a long EX) and
 * {@code c<n>:big:<i>} (large values, {@link BigValue}).
 *
 * <p>Not thread-safe: a model belongs to its client's thread while the load runs and to the
 * test's thread after.
 */
final class ClientKeys {
    /** Small strings per client, {@code c<n>:str:0..}. */
    static final int STRINGS = 8;
    /** Large-value keys per client, {@code c<n>:big:0..}: overwritten, so the log grows and the data does not. */
    static final int BIG_STRINGS = 12;

    /**
     * A string key's value and expiry. {@code ttlMillis} is 0 for none; the deadline the
     * server set lies in {@code [setFrom + ttlMillis, setBy + ttlMillis]}, the client's clock
     * when the SET was sent and when its reply came (or the crash, for one never answered).
     * Read from a server, {@code ttlMillis} is the PTTL and {@code setFrom}/{@code setBy}
     * the clock around the PTTL call, so the deadline lies in {@code [setFrom + ttl, setBy + ttl]}.
     */
    record Timed(String value, long ttlMillis, long setFrom, long setBy) {
        boolean expires() {
            return ttlMillis > 0;
        }
    }

    final int client;
    final Set<String> set = new HashSet<>();
    final Set<String> moved = new HashSet<>();
    /** Leftmost first, as LRANGE shows it. */
    final ArrayDeque<String> list = new ArrayDeque<>();
    final Map<String, String> hash = new HashMap<>();
    final Map<String, Long> zset = new HashMap<>();
    final StringBuilder appended = new StringBuilder();
    /** Stream entries, oldest first, as {@code <id> <value>} (one field each). */
    final ArrayDeque<String> stream = new ArrayDeque<>();
    /** By key name; absent keys are not here. */
    final Map<String, Timed> strings = new TreeMap<>();

    ClientKeys(int client) {
        this.client = client;
    }

    String key(String name) {
        return "c" + client + ":" + name;
    }

    ClientKeys copy() {
        ClientKeys c = new ClientKeys(client);
        c.set.addAll(set);
        c.moved.addAll(moved);
        c.list.addAll(list);
        c.hash.putAll(hash);
        c.zset.putAll(zset);
        c.appended.append(appended);
        c.stream.addAll(stream);
        c.strings.putAll(strings);
        return c;
    }

    /** The keys that exist: what these add to DBSIZE. */
    int existingKeys() {
        int n = strings.size();
        for (boolean nonEmpty : new boolean[] {!set.isEmpty(), !moved.isEmpty(), !list.isEmpty(), !hash.isEmpty(),
                !zset.isEmpty(), appended.length() > 0, !stream.isEmpty()}) {
            n += nonEmpty ? 1 : 0;
        }
        return n;
    }

    /** Same data, and the same strings expire (when is checked by {@link #expiryProblems}). */
    boolean sameAs(ClientKeys o) {
        return differences(o).isEmpty();
    }

    /** What differs from {@code o}, key by key; empty when {@link #sameAs}. */
    List<String> differences(ClientKeys o) {
        List<String> d = new ArrayList<>();
        diff(d, "set", set, o.set);
        diff(d, "moved", moved, o.moved);
        diff(d, "list", new ArrayList<>(list), new ArrayList<>(o.list));
        diff(d, "hash", hash, o.hash);
        diff(d, "zset", zset, o.zset);
        diff(d, "append", appended.toString(), o.appended.toString());
        diff(d, "stream", new ArrayList<>(stream), new ArrayList<>(o.stream));
        Set<String> names = new HashSet<>(strings.keySet());
        names.addAll(o.strings.keySet());
        for (String name : names) {
            Timed a = strings.get(name);
            Timed b = o.strings.get(name);
            if (a == null || b == null || !a.value.equals(b.value) || a.expires() != b.expires()) {
                d.add(name + ": " + describe(a) + " vs " + describe(b));
            }
        }
        return d;
    }

    private void diff(List<String> d, String name, Object a, Object b) {
        if (!Objects.equals(a, b)) {
            d.add(key(name) + ": " + abbreviate(a) + " vs " + abbreviate(b));
        }
    }

    private static String describe(Timed t) {
        return t == null ? "absent" : abbreviate(t.value) + (t.expires() ? " with a TTL" : " without a TTL");
    }

    private static String abbreviate(Object o) {
        String s = String.valueOf(o);
        return s.length() <= 300 ? s : s.substring(0, 300) + "… (" + s.length() + " chars)";
    }

    /**
     * Where this model's expiring strings (the model a server was matched to) disagree with
     * {@code observed}'s PTTLs: each deadline the server shows must lie in the window the
     * model allows, give or take {@code slackMillis} (clock reads around calls).
     */
    List<String> expiryProblems(ClientKeys observed, long slackMillis) {
        List<String> p = new ArrayList<>();
        for (Map.Entry<String, Timed> e : strings.entrySet()) {
            Timed model = e.getValue();
            Timed seen = observed.strings.get(e.getKey());
            if (!model.expires() || seen == null) {
                continue;
            }
            long earliest = model.setFrom + model.ttlMillis;
            long latest = model.setBy + model.ttlMillis;
            long seenEarliest = seen.setFrom + seen.ttlMillis;
            long seenLatest = seen.setBy + seen.ttlMillis;
            if (seenLatest < earliest - slackMillis || seenEarliest > latest + slackMillis) {
                p.add(e.getKey() + ": deadline between " + seenEarliest + " and " + seenLatest + " (PTTL " + seen.ttlMillis
                        + "), expected between " + earliest + " and " + latest);
            }
        }
        return p;
    }

    /** Reads client {@code client}'s keys from a server. */
    static ClientKeys read(Jedis j, int client) {
        ClientKeys k = new ClientKeys(client);
        k.set.addAll(j.smembers(k.key("set")));
        k.moved.addAll(j.smembers(k.key("moved")));
        k.list.addAll(j.lrange(k.key("list"), 0, -1));
        k.hash.putAll(j.hgetAll(k.key("hash")));
        for (var t : j.zrangeWithScores(k.key("zset"), 0, -1)) {
            double score = t.getScore();
            if (score != Math.rint(score)) {
                throw new AssertionError(k.key("zset") + " member " + t.getElement() + " has a fractional score " + score);
            }
            k.zset.put(t.getElement(), (long) score);
        }
        String appended = j.get(k.key("append"));
        if (appended != null) {
            k.appended.append(appended);
        }
        @SuppressWarnings("unchecked")
        List<Object> entries = (List<Object>) j.sendCommand(Command.XRANGE, k.key("stream"), "-", "+");
        for (Object e : entries) {
            List<?> entry = (List<?>) e;
            List<?> fields = (List<?>) entry.get(1);
            k.stream.add(text(entry.get(0)) + " " + text(fields.get(1)));
        }
        for (int i = 0; i < STRINGS; i++) {
            readString(j, k, k.key("str:" + i), false);
        }
        for (int i = 0; i < BIG_STRINGS; i++) {
            readString(j, k, k.key("big:" + i), true);
        }
        return k;
    }

    private static String text(Object bulk) {
        return new String((byte[]) bulk, StandardCharsets.UTF_8);
    }

    private static void readString(Jedis j, ClientKeys k, String name, boolean big) {
        String value = j.get(name);
        if (value == null) {
            return;
        }
        // Nothing writes while the test reads: the key cannot change between the two calls.
        long before = System.currentTimeMillis();
        long pttl = j.pttl(name);
        long after = System.currentTimeMillis();
        k.strings.put(name, new Timed(big ? BigValue.identify(value) : value, Math.max(pttl, 0), before, after));
    }
}
