package io.strata.cli.serve;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Protocol.Command;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * One Jedis connection of {@link CrashUnderLoadTest}'s load, for one cycle: sends a seeded
 * random mix of commands until the server dies, pipelined ({@link #BATCH} at a time) or one
 * at a time, and records every command it sent ({@link #ops}) and how many of them, from the
 * first, were answered ({@link #answered}): a pipeline's replies are read all together, so a
 * batch cut short by the crash counts as sent, not answered.
 *
 * <p>Each reply to a command on the client's own keys is checked as it comes against the
 * model ({@link ClientKeys}), which is exact because no one else writes those keys; wrong
 * replies are collected in {@link #problems}. The mix: SADD/SREM, SMOVE and a MULTI block
 * moving a member between two sets, LPUSH/RPOP, HSET/HINCRBY/HDEL, ZADD/ZINCRBY/ZREM, APPEND,
 * SET with and without a long EX, EXPIRE, PERSIST, RENAME, DEL and GETDEL of strings, XADD
 * with MAXLEN, DEL of whole collections, a script moving a set member; on
 * shared keys INCR of four counters, MULTI transfers between two accounts, MULTI reads of
 * both accounts, and SADD to one set.
 */
final class LoadClient implements Runnable {
    /** Commands per pipelined batch. */
    static final int BATCH = 50;
    /** Large values per pipelined batch during a burst: 16 × 200–300 KB, a few MiB a round trip. */
    static final int BIG_BATCH = 16;
    /** Socket timeout: longer than any fsync stall; the crash itself ends a read at once. */
    private static final int TIMEOUT_MILLIS = 30_000;
    /** Long TTLs: nothing expires while the test runs, so a key with a TTL must still be there. */
    private static final int MIN_TTL_SECONDS = 100_000;
    private static final String[] NO_ARGS = {};
    /** Entries a client's stream keeps (XADD's exact MAXLEN). */
    private static final int STREAM_MAXLEN = 40;

    final int id;
    final boolean pipelined;
    final ClientKeys live;
    final List<LoadOp> ops = new ArrayList<>();
    final List<String> problems = new ArrayList<>();
    /** Ops {@code [0, answered)} were answered; written by the client thread, read after join. */
    volatile int answered;
    /** Bytes of large values still to send before the ordinary mix (the burst). */
    private long bigBytesLeft;
    private volatile boolean bigDone;
    /** Why the connection ended and when (the client's clock). */
    volatile Throwable ended;
    volatile long endedAt;
    private final Random random;
    private final int port;
    /** The next sequence number: makes every value and member this client writes unique. */
    long seq;

    LoadClient(int id, boolean pipelined, ClientKeys live, long seq, long seed, int port, long bigBytes) {
        this.id = id;
        this.pipelined = pipelined;
        this.live = live;
        this.seq = seq;
        this.random = new Random(seed);
        this.port = port;
        this.bigBytesLeft = bigBytes;
        this.bigDone = bigBytes == 0;
    }

    boolean burstDone() {
        return bigDone;
    }

    @Override
    public void run() {
        try (Jedis j = new Jedis("127.0.0.1", port, TIMEOUT_MILLIS)) {
            while (true) {
                if (pipelined) {
                    runBatch(j);
                } else {
                    runOne(j, next());
                }
            }
        } catch (RuntimeException e) {
            // The crash (a JedisConnectionException); anything else, or an end before the
            // crash, is reported by the test.
            endedAt = System.currentTimeMillis();
            ended = e;
        }
    }

    private void runBatch(Jedis j) {
        boolean big = bigBytesLeft > 0;
        List<LoadOp> batch = new ArrayList<>();
        for (int i = 0; i < (big ? BIG_BATCH : BATCH); i++) {
            batch.add(big ? bigSet() : next());
        }
        Pipeline p = j.pipelined();
        List<Response<Object>> replies = new ArrayList<>();
        for (LoadOp op : batch) {
            Response<Object> last = null;
            if (op.multi) {
                p.sendCommand(Command.MULTI, NO_ARGS);
            }
            for (String[] c : op.commands) {
                last = p.sendCommand(Command.valueOf(c[0]), tail(c));
            }
            if (op.multi) {
                last = p.sendCommand(Command.EXEC, NO_ARGS);
            }
            replies.add(last);
        }
        try {
            p.sync();
        } finally {
            if (big) {
                batch.forEach(LoadOp::forget);
            }
        }
        long now = System.currentTimeMillis();
        Iterator<Response<Object>> r = replies.iterator();
        for (LoadOp op : batch) {
            Object reply;
            try {
                reply = r.next().get();
            } catch (JedisDataException e) {
                reply = e;
            }
            answer(op, reply, now);
        }
        if (bigBytesLeft <= 0) {
            bigDone = true;
        }
    }

    private void runOne(Jedis j, LoadOp op) {
        Object reply;
        try {
            if (op.multi) {
                j.sendCommand(Command.MULTI);
                for (String[] c : op.commands) {
                    j.sendCommand(Command.valueOf(c[0]), tail(c));
                }
                reply = j.sendCommand(Command.EXEC);
            } else {
                String[] c = op.commands.get(0);
                reply = j.sendCommand(Command.valueOf(c[0]), tail(c));
            }
        } catch (JedisDataException e) {
            reply = e;
        }
        answer(op, reply, System.currentTimeMillis());
    }

    private void answer(LoadOp op, Object reply, long now) {
        op.reply = LoadOp.normalize(reply);
        op.answeredAt = now;
        op.answered = true;
        String wrong = op.wrongReply();
        if (wrong != null && problems.size() < 20) {
            problems.add("client " + id + " op " + ops.indexOf(op) + " " + describe(op) + ": " + wrong);
        }
        answered++;
    }

    static String describe(LoadOp op) {
        if (op.commands == null) {
            return "(a large SET)";
        }
        StringBuilder b = new StringBuilder(op.multi ? "MULTI " : "");
        for (String[] c : op.commands) {
            b.append(String.join(" ", c)).append(op.multi ? "; " : "");
        }
        return b.toString();
    }

    private static String[] tail(String[] c) {
        return java.util.Arrays.copyOfRange(c, 1, c.length);
    }

    /** Adds the next op of the mix to {@link #ops}. */
    private LoadOp next() {
        int dice = random.nextInt(132);
        LoadOp op = dice < 100 ? choose(dice) : dice < 120 ? chooseRemoval(dice - 100) : chooseMore(dice - 120);
        ops.add(op);
        return op;
    }

    private LoadOp bigSet() {
        int length = 200_000 + random.nextInt(100_000);
        long s = seq++;
        String name = live.key("big:" + random.nextInt(ClientKeys.BIG_STRINGS));
        String identity = BigValue.identity(s, length);
        bigBytesLeft -= length;
        LoadOp op = LoadOp.own(live, (k, from, by) -> {
            k.strings.put(name, new ClientKeys.Timed(identity, 0, from, by));
            return "OK";
        }, false, new String[] {"SET", name, BigValue.of(s, length)});
        ops.add(op);
        return op;
    }

    private LoadOp choose(int dice) {
        long s = seq++;
        ClientKeys k = live;
        if (dice < 10) {
            String member = "e" + s;
            return LoadOp.own(k, (m, f, b) -> m.set.add(member) ? 1L : 0L, false, new String[] {"SADD", k.key("set"), member});
        }
        if (dice < 15 && !k.set.isEmpty()) {
            String member = any(k.set);
            return LoadOp.own(k, (m, f, b) -> m.set.remove(member) ? 1L : 0L, false, new String[] {"SREM", k.key("set"), member});
        }
        if (dice < 20 && !k.set.isEmpty()) {
            // Atomic together: after a crash the member is in exactly one of the two sets.
            String member = any(k.set);
            return LoadOp.own(k, (m, f, b) -> List.of(m.set.remove(member) ? 1L : 0L, m.moved.add(member) ? 1L : 0L), true,
                    new String[] {"SREM", k.key("set"), member}, new String[] {"SADD", k.key("moved"), member});
        }
        if (dice < 28 || dice < 33 && k.list.isEmpty()) {
            String value = "v" + s;
            return LoadOp.own(k, (m, f, b) -> {
                m.list.addFirst(value);
                return (long) m.list.size();
            }, false, new String[] {"LPUSH", k.key("list"), value});
        }
        if (dice < 33) {
            return LoadOp.own(k, (m, f, b) -> m.list.pollLast(), false, new String[] {"RPOP", k.key("list")});
        }
        if (dice < 39) {
            String field = "f" + random.nextInt(16);
            String value = "x" + s;
            return LoadOp.own(k, (m, f, b) -> m.hash.put(field, value) == null ? 1L : 0L, false,
                    new String[] {"HSET", k.key("hash"), field, value});
        }
        if (dice < 45) {
            String field = "n" + random.nextInt(4);
            long delta = 1 + random.nextInt(9);
            return LoadOp.own(k, (m, f, b) -> {
                long v = Long.parseLong(m.hash.getOrDefault(field, "0")) + delta;
                m.hash.put(field, Long.toString(v));
                return v;
            }, false, new String[] {"HINCRBY", k.key("hash"), field, Long.toString(delta)});
        }
        if (dice < 51) {
            String member = "m" + random.nextInt(32);
            return LoadOp.own(k, (m, f, b) -> m.zset.put(member, s) == null ? 1L : 0L, false,
                    new String[] {"ZADD", k.key("zset"), Long.toString(s), member});
        }
        if (dice < 56) {
            String member = "m" + random.nextInt(32);
            long delta = 1 + random.nextInt(50);
            return LoadOp.own(k, (m, f, b) -> (double) m.zset.merge(member, delta, Long::sum), false,
                    new String[] {"ZINCRBY", k.key("zset"), Long.toString(delta), member});
        }
        if (dice < 61) {
            String piece = s + ";";
            return LoadOp.own(k, (m, f, b) -> (long) m.appended.append(piece).length(), false,
                    new String[] {"APPEND", k.key("append"), piece});
        }
        if (dice < 69) {
            String name = k.key("str:" + random.nextInt(ClientKeys.STRINGS));
            String value = "s" + s;
            if (dice < 67) {
                long ttl = MIN_TTL_SECONDS + random.nextInt(900_000);
                return LoadOp.own(k, (m, f, b) -> {
                    m.strings.put(name, new ClientKeys.Timed(value, ttl * 1000, f, b));
                    return "OK";
                }, false, new String[] {"SET", name, value, "EX", Long.toString(ttl)});
            }
            // A SET without EX drops the key's TTL (Redis: SET discards it).
            return LoadOp.own(k, (m, f, b) -> {
                m.strings.put(name, new ClientKeys.Timed(value, 0, f, b));
                return "OK";
            }, false, new String[] {"SET", name, value});
        }
        if (dice < 81) {
            String counter = "counter:" + random.nextInt(CrashUnderLoadTest.COUNTERS);
            return LoadOp.shared(LoadOp.Shared.INCR, counter, 1, false, new String[] {"INCR", counter});
        }
        if (dice < 88) {
            long amount = 1 + random.nextInt(100);
            return LoadOp.shared(LoadOp.Shared.TRANSFER, null, amount, true,
                    new String[] {"DECRBY", LoadOp.ACCOUNT_A, Long.toString(amount)},
                    new String[] {"INCRBY", LoadOp.ACCOUNT_B, Long.toString(amount)});
        }
        if (dice < 92) {
            return LoadOp.shared(LoadOp.Shared.AUDIT, null, 0, true,
                    new String[] {"GET", LoadOp.ACCOUNT_A}, new String[] {"GET", LoadOp.ACCOUNT_B});
        }
        String member = "c" + id + "." + s;
        return LoadOp.shared(LoadOp.Shared.SADD, member, 0, false, new String[] {"SADD", LoadOp.SHARED_SET, member});
    }

    /**
     * Commands that remove or move what the others wrote: DEL, GETDEL, EXPIRE, PERSIST and
     * RENAME (which keeps the TTL) of strings, SMOVE (one command over two keys), HDEL, ZREM.
     */
    private LoadOp chooseRemoval(int dice) {
        ClientKeys k = live;
        String name = k.key("str:" + random.nextInt(ClientKeys.STRINGS));
        if (dice < 3) {
            return LoadOp.own(k, (m, f, b) -> m.strings.remove(name) != null ? 1L : 0L, false, new String[] {"DEL", name});
        }
        if (dice < 5) {
            return LoadOp.own(k, (m, f, b) -> {
                ClientKeys.Timed t = m.strings.remove(name);
                return t == null ? null : t.value();
            }, false, new String[] {"GETDEL", name});
        }
        if (dice < 8) {
            long ttl = MIN_TTL_SECONDS + random.nextInt(900_000);
            return LoadOp.own(k, (m, f, b) -> {
                ClientKeys.Timed t = m.strings.get(name);
                if (t == null) {
                    return 0L;
                }
                m.strings.put(name, new ClientKeys.Timed(t.value(), ttl * 1000, f, b));
                return 1L;
            }, false, new String[] {"EXPIRE", name, Long.toString(ttl)});
        }
        if (dice < 10) {
            return LoadOp.own(k, (m, f, b) -> {
                ClientKeys.Timed t = m.strings.get(name);
                if (t == null || !t.expires()) {
                    return 0L;
                }
                m.strings.put(name, new ClientKeys.Timed(t.value(), 0, f, b));
                return 1L;
            }, false, new String[] {"PERSIST", name});
        }
        if (dice < 13 && k.strings.containsKey(name)) {
            String to = k.key("str:" + (1 + random.nextInt(ClientKeys.STRINGS - 1) + Integer.parseInt(name.substring(name.lastIndexOf(':') + 1)))
                    % ClientKeys.STRINGS);
            // The destination takes the source's value and its deadline, whatever it held.
            return LoadOp.own(k, (m, f, b) -> {
                m.strings.put(to, m.strings.remove(name));
                return "OK";
            }, false, new String[] {"RENAME", name, to});
        }
        if (dice < 15 && !k.set.isEmpty()) {
            String member = any(k.set);
            return LoadOp.own(k, (m, f, b) -> {
                m.set.remove(member);
                m.moved.add(member);
                return 1L;
            }, false, new String[] {"SMOVE", k.key("set"), k.key("moved"), member});
        }
        if (dice < 17) {
            String field = "f" + random.nextInt(16);
            return LoadOp.own(k, (m, f, b) -> m.hash.remove(field) != null ? 1L : 0L, false, new String[] {"HDEL", k.key("hash"), field});
        }
        String member = "m" + random.nextInt(32);
        return LoadOp.own(k, (m, f, b) -> m.zset.remove(member) != null ? 1L : 0L, false, new String[] {"ZREM", k.key("zset"), member});
    }

    /**
     * XADD with an explicit ID and an exact MAXLEN (trims in the same command), DEL of a whole
     * collection (a range clear under the keys of its members), a script moving a set member
     * (a script is atomic as MULTI is), and RENAME and DEL of large values.
     */
    private LoadOp chooseMore(int dice) {
        ClientKeys k = live;
        long s = seq++;
        if (dice < 5) {
            String id = (s + 1) + "-0";
            String value = "x" + s;
            return LoadOp.own(k, (m, f, b) -> {
                m.stream.addLast(id + " " + value);
                while (m.stream.size() > STREAM_MAXLEN) {
                    m.stream.removeFirst();
                }
                return id;
            }, false, new String[] {"XADD", k.key("stream"), "MAXLEN", Integer.toString(STREAM_MAXLEN), id, "v", value});
        }
        if (dice < 7) {
            String[] names = {"set", "moved", "list", "hash", "zset"};
            String name = names[random.nextInt(names.length)];
            return LoadOp.own(k, (m, f, b) -> {
                java.util.Collection<?> c = switch (name) {
                    case "set" -> m.set;
                    case "moved" -> m.moved;
                    case "list" -> m.list;
                    case "hash" -> m.hash.keySet();
                    default -> m.zset.keySet();
                };
                long existed = c.isEmpty() ? 0 : 1;
                c.clear();
                return existed;
            }, false, new String[] {"DEL", k.key(name)});
        }
        if (dice >= 10) {
            // Large values (written by a burst, kept across cycles) are stored in chunks:
            // RENAME moves them all, DEL clears them all.
            int from = random.nextInt(ClientKeys.BIG_STRINGS);
            String name = k.key("big:" + from);
            if (dice == 10 && k.strings.containsKey(name)) {
                String to = k.key("big:" + (from + 1 + random.nextInt(ClientKeys.BIG_STRINGS - 1)) % ClientKeys.BIG_STRINGS);
                return LoadOp.own(k, (m, f, b) -> {
                    m.strings.put(to, m.strings.remove(name));
                    return "OK";
                }, false, new String[] {"RENAME", name, to});
            }
            return LoadOp.own(k, (m, f, b) -> m.strings.remove(name) != null ? 1L : 0L, false, new String[] {"DEL", name});
        }
        if (!k.set.isEmpty()) {
            String member = any(k.set);
            return LoadOp.own(k, (m, f, b) -> {
                m.set.remove(member);
                m.moved.add(member);
                return 1L;
            }, false, new String[] {"EVAL", "redis.call('SREM', KEYS[1], ARGV[1]); return redis.call('SADD', KEYS[2], ARGV[1])",
                    "2", k.key("set"), k.key("moved"), member});
        }
        String piece = s + ";";
        return LoadOp.own(k, (m, f, b) -> (long) m.appended.append(piece).length(), false,
                new String[] {"APPEND", k.key("append"), piece});
    }

    /** A member of {@code set}, chosen by the seeded random (sets iterate in a fixed order for fixed contents). */
    private String any(java.util.Set<String> set) {
        int skip = random.nextInt(Math.min(set.size(), 8));
        Iterator<String> it = set.iterator();
        for (int i = 0; i < skip; i++) {
            it.next();
        }
        return it.next();
    }
}
