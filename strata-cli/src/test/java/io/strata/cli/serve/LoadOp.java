package io.strata.cli.serve;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One command, or one MULTI block, that a load client of {@link CrashUnderLoadTest} sends:
 * the command lines, what it does to the client's own keys ({@link Effect}, replayed after a
 * crash to find the prefix the server kept), the reply expected, and for commands on keys
 * all clients share ({@link Shared}) what the shared checks need. The client fills in the
 * reply and when it came.
 */
final class LoadOp {
    /** What a command does to the model of its client's keys; returns the reply the server must give. */
    interface Effect {
        /**
         * @param from the client's clock before the command was sent
         * @param by   the client's clock once its reply came, or once the server was dead
         */
        Object apply(ClientKeys keys, long from, long by);
    }

    /** Commands on keys every client writes: checked against bounds, not replayed. */
    enum Shared {
        /** Not shared: {@link #effect} says everything. */
        NONE,
        /** {@code INCR counter:<k>}; {@link #sharedKey} is the counter. */
        INCR,
        /** MULTI, DECRBY acct:a {@link #amount}, INCRBY acct:b {@link #amount}, EXEC: the total stays. */
        TRANSFER,
        /** MULTI, GET acct:a, GET acct:b, EXEC: a read that must see the total. */
        AUDIT,
        /** {@code SADD shared:set} {@link #sharedKey}. */
        SADD
    }

    static final String SHARED_SET = "shared:set";
    static final String ACCOUNT_A = "acct:a";
    static final String ACCOUNT_B = "acct:b";

    /** The command lines, without the MULTI and EXEC of a block; dropped once sent when large ({@link #forget}). */
    List<String[]> commands;
    final boolean multi;
    final Effect effect;
    final Object expected;
    final Shared shared;
    final String sharedKey;
    final long amount;
    /** The client's clock before it queued the command. */
    final long from;

    /** Set by the client thread; read by the test after it joined the client. */
    boolean answered;
    Object reply;
    long answeredAt;

    private LoadOp(List<String[]> commands, boolean multi, Effect effect, Object expected, Shared shared, String sharedKey,
                   long amount, long from) {
        this.commands = commands;
        this.multi = multi;
        this.effect = effect;
        this.expected = expected;
        this.shared = shared;
        this.sharedKey = sharedKey;
        this.amount = amount;
        this.from = from;
    }

    /** A command on the client's own keys: applies {@code effect} to {@code live} now, for the expected reply. */
    static LoadOp own(ClientKeys live, Effect effect, boolean multi, String[]... commands) {
        long now = System.currentTimeMillis();
        Object expected = effect.apply(live, now, Long.MAX_VALUE);
        return new LoadOp(List.of(commands), multi, effect, expected, Shared.NONE, null, 0, now);
    }

    /** A command on shared keys; its reply is checked by the shared checks. */
    static LoadOp shared(Shared kind, String sharedKey, long amount, boolean multi, String[]... commands) {
        return new LoadOp(List.of(commands), multi, (k, f, b) -> null, null, kind, sharedKey, amount, System.currentTimeMillis());
    }

    /** Lets a large value's bytes go once sent: the model keeps only its identity. */
    void forget() {
        commands = null;
    }

    /** Why the reply is not the expected one, or null when it is (or is checked elsewhere). */
    String wrongReply() {
        if (shared == Shared.NONE) {
            return matches(expected, reply) ? null : "expected " + expected + ", got " + reply;
        }
        if (reply instanceof String s && s.startsWith("ERR ")) {
            return "an error reply: " + s;
        }
        return switch (shared) {
            case INCR -> reply instanceof Long ? null : "INCR answered " + reply;
            case SADD -> Long.valueOf(1).equals(reply) ? null : "SADD of a new member answered " + reply;
            case TRANSFER, AUDIT -> total(reply) == CrashUnderLoadTest.TOTAL ? null
                    : shared + " saw acct:a + acct:b = " + total(reply) + " (" + reply + "), not " + CrashUnderLoadTest.TOTAL;
            case NONE -> throw new AssertionError();
        };
    }

    /** The sum of a two-element EXEC reply of numbers (integers or bulk strings), or Long.MIN_VALUE. */
    static long total(Object execReply) {
        if (!(execReply instanceof List<?> l) || l.size() != 2) {
            return Long.MIN_VALUE;
        }
        try {
            return Long.parseLong(String.valueOf(l.get(0))) + Long.parseLong(String.valueOf(l.get(1)));
        } catch (NumberFormatException e) {
            return Long.MIN_VALUE;
        }
    }

    private static boolean matches(Object expected, Object reply) {
        if (expected instanceof Double d) {
            return reply instanceof String s && parses(s) && Double.parseDouble(s) == d;
        }
        return Objects.equals(expected, reply);
    }

    private static boolean parses(String s) {
        try {
            Double.parseDouble(s);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** A Jedis reply as the model writes replies: strings for bulk and status, longs, lists; errors as "ERR …". */
    static Object normalize(Object reply) {
        if (reply instanceof byte[] b) {
            return new String(b, StandardCharsets.UTF_8);
        }
        if (reply instanceof List<?> l) {
            List<Object> out = new ArrayList<>(l.size());
            for (Object o : l) {
                out.add(normalize(o));
            }
            return out;
        }
        if (reply instanceof Exception e) {
            return "ERR " + e.getMessage();
        }
        return reply;
    }
}
