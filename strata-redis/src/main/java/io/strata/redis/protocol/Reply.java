package io.strata.redis.protocol;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * One reply to a client, as a value: commands build replies without knowing which protocol
 * the connection speaks, and {@link RespEncoder} writes them as RESP2 or RESP3. The RESP3
 * types that RESP2 lacks fall back as Redis falls them back: a map becomes a flat array, a set
 * an array, a double a bulk string, a boolean an integer, a push an array, and each kind of
 * null its RESP2 form ({@code $-1} for a missing string, {@code *-1} for a missing array).
 */
public abstract class Reply {
    Reply() {
    }

    /** {@code +OK}. */
    public static final Reply OK = new Simple("OK");
    /** {@code +QUEUED}, the answer to a command inside MULTI. */
    public static final Reply QUEUED = new Simple("QUEUED");
    /** {@code +PONG}. */
    public static final Reply PONG = new Simple("PONG");
    /** A missing string: RESP2 {@code $-1}, RESP3 {@code _}. */
    public static final Reply NULL_BULK = new Null(false);
    /** A missing array: RESP2 {@code *-1}, RESP3 {@code _}. */
    public static final Reply NULL_ARRAY = new Null(true);
    public static final Reply ZERO = new Int(0);
    public static final Reply ONE = new Int(1);
    public static final Reply EMPTY_ARRAY = new Array(List.of());

    public static Reply simple(String text) {
        return new Simple(text);
    }

    /** An array of simple strings, one per line: the shape of every HELP subcommand's reply. */
    public static Reply lines(String... lines) {
        List<Reply> out = new ArrayList<>(lines.length);
        for (String line : lines) {
            out.add(new Simple(line));
        }
        return array(out);
    }

    /** An error reply; {@code message} starts with its code, e.g. {@code "ERR syntax error"} or {@code "WRONGTYPE ..."}. */
    public static Reply error(String message) {
        return new Error(message, false);
    }

    /**
     * An error reply already counted in the error statistics when it first arose: a script's
     * error that came from a command it called (Redis's {@code ERR_REPLY_FLAG_NO_STATS_UPDATE}).
     */
    public static Reply countedError(String message) {
        return new Error(message, true);
    }

    public static Reply integer(long value) {
        return value == 0 ? ZERO : value == 1 ? ONE : new Int(value);
    }

    public static Reply bulk(byte[] value) {
        return value == null ? NULL_BULK : new Bulk(value);
    }

    public static Reply bulk(String value) {
        return value == null ? NULL_BULK : new Bulk(value.getBytes(StandardCharsets.UTF_8));
    }

    public static Reply array(List<Reply> items) {
        return new Array(items);
    }

    public static Reply array(Reply... items) {
        return new Array(List.of(items));
    }

    /** An array of bulk strings; null elements become null bulks. */
    public static Reply bulks(Collection<byte[]> values) {
        List<Reply> items = new ArrayList<>(values.size());
        for (byte[] v : values) {
            items.add(bulk(v));
        }
        return new Array(items);
    }

    /** A map given as alternating keys and values. */
    public static Reply map(List<Reply> keysAndValues) {
        return new MapReply(keysAndValues);
    }

    public static Reply set(List<Reply> items) {
        return new SetReply(items);
    }

    /**
     * A double written as {@code text} (a bulk string in RESP2, a double in RESP3): for
     * replies Redis formats its own way, such as GEOPOS's coordinates.
     */
    public static Reply doubleText(double value, String text) {
        return new DoubleReply(value, text);
    }

    public static Reply doubleValue(double value) {
        return new DoubleReply(value);
    }

    public static Reply bool(boolean value) {
        return new Bool(value);
    }

    /** A RESP3 big number (decimal digits, maybe signed); a bulk string in RESP2. */
    public static Reply bigNumber(String digits) {
        return new BigNumber(digits);
    }

    /** Text that RESP3 sends as a verbatim string of format {@code txt} (INFO, CLIENT INFO, LATENCY DOCTOR). */
    public static Reply verbatim(String text) {
        return new Verbatim(text);
    }

    /** An out-of-band message (pub/sub): RESP3 push, RESP2 array. */
    public static Reply push(List<Reply> items) {
        return new Push(items);
    }

    /**
     * Several replies written back to back as one command's answer: SUBSCRIBE and its kin
     * confirm each channel with a reply of its own. Not an array: nothing frames the group.
     */
    public static Reply sequence(List<Reply> replies) {
        return new Sequence(replies);
    }

    /** True for an error reply. */
    public boolean isError() {
        return false;
    }

    public static final class Simple extends Reply {
        final String text;

        Simple(String text) {
            this.text = text;
        }

        public String text() {
            return text;
        }
    }

    public static final class Error extends Reply {
        final String message;
        final boolean counted;

        Error(String message, boolean counted) {
            this.message = message;
            this.counted = counted;
        }

        public String message() {
            return message;
        }

        /** Whether the error statistics counted it already ({@link #countedError}). */
        public boolean counted() {
            return counted;
        }

        @Override
        public boolean isError() {
            return true;
        }
    }

    public static final class Int extends Reply {
        final long value;

        Int(long value) {
            this.value = value;
        }

        public long value() {
            return value;
        }
    }

    public static final class Bulk extends Reply {
        final byte[] value;

        Bulk(byte[] value) {
            this.value = value;
        }

        public byte[] value() {
            return value;
        }
    }

    public static final class Null extends Reply {
        final boolean array;

        Null(boolean array) {
            this.array = array;
        }
    }

    public static class Array extends Reply {
        final List<Reply> items;

        Array(List<Reply> items) {
            this.items = items;
        }

        public List<Reply> items() {
            return items;
        }
    }

    public static final class MapReply extends Array {
        MapReply(List<Reply> keysAndValues) {
            super(keysAndValues);
        }
    }

    public static final class SetReply extends Array {
        SetReply(List<Reply> items) {
            super(items);
        }
    }

    public static final class Push extends Array {
        Push(List<Reply> items) {
            super(items);
        }
    }

    public static final class Sequence extends Reply {
        final List<Reply> replies;

        Sequence(List<Reply> replies) {
            this.replies = List.copyOf(replies);
        }

        public List<Reply> replies() {
            return replies;
        }
    }

    public static final class DoubleReply extends Reply {
        final double value;
        /** How it is written, when not as Redis writes a double ({@link #doubleText}); null otherwise. */
        final String text;

        DoubleReply(double value) {
            this(value, null);
        }

        DoubleReply(double value, String text) {
            this.value = value;
            this.text = text;
        }

        public double value() {
            return value;
        }
    }

    public static final class Bool extends Reply {
        final boolean value;

        Bool(boolean value) {
            this.value = value;
        }

        public boolean value() {
            return value;
        }
    }

    public static final class BigNumber extends Reply {
        final String digits;

        BigNumber(String digits) {
            this.digits = digits;
        }

        public String digits() {
            return digits;
        }
    }

    public static final class Verbatim extends Reply {
        final String text;

        Verbatim(String text) {
            this.text = text;
        }

        public String text() {
            return text;
        }
    }
}
