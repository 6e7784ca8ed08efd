package io.strata.redis.streams;

import io.strata.redis.command.Numbers;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A stream entry ID: milliseconds and sequence, both unsigned 64-bit (Java longs read as
 * unsigned). Encoded as 16 bytes big-endian, so byte order is ID order.
 */
public record StreamId(long ms, long seq) implements Comparable<StreamId> {
    public static final StreamId MIN = new StreamId(0, 0);
    public static final StreamId MAX = new StreamId(-1L, -1L);
    static final String INVALID = "ERR Invalid stream ID specified as stream command argument";

    @Override
    public int compareTo(StreamId o) {
        int c = Long.compareUnsigned(ms, o.ms);
        return c != 0 ? c : Long.compareUnsigned(seq, o.seq);
    }

    public boolean isZero() {
        return ms == 0 && seq == 0;
    }

    /** The next ID, or null after the last possible one (Redis's streamIncrID failing). */
    public StreamId next() {
        if (seq == -1L) {
            return ms == -1L ? null : new StreamId(ms + 1, 0);
        }
        return new StreamId(ms, seq + 1);
    }

    /** The previous ID, or null before 0-0. */
    public StreamId previous() {
        if (seq == 0) {
            return ms == 0 ? null : new StreamId(ms - 1, -1L);
        }
        return new StreamId(ms, seq - 1);
    }

    public byte[] encode() {
        return ByteBuffer.allocate(16).putLong(ms).putLong(seq).array();
    }

    public static StreamId decode(byte[] b) {
        ByteBuffer buf = ByteBuffer.wrap(b);
        return new StreamId(buf.getLong(), buf.getLong());
    }

    @Override
    public String toString() {
        return Long.toUnsignedString(ms) + "-" + Long.toUnsignedString(seq);
    }

    public Reply reply() {
        return Reply.bulk(toString());
    }

    /** The parsed forms of an ID argument. */
    public record Parsed(StreamId id, boolean seqGiven) {
    }

    /**
     * Parses {@code <ms>[-<seq>]}, or {@code -} / {@code +} unless {@code strict}; a missing
     * sequence is {@code missingSeq}. With {@code allowSeqStar}, {@code <ms>-*} parses with
     * {@code seqGiven} false (XADD).
     */
    public static Parsed parse(byte[] arg, long missingSeq, boolean strict, boolean allowSeqStar) {
        String s = new String(arg, StandardCharsets.ISO_8859_1);
        if (s.length() > 127) {
            throw new RedisException(INVALID);
        }
        if (s.equals("-") || s.equals("+")) {
            if (strict) {
                throw new RedisException(INVALID);
            }
            return new Parsed(s.equals("-") ? MIN : MAX, true);
        }
        int dash = s.indexOf('-');
        String msPart = dash < 0 ? s : s.substring(0, dash);
        long ms = parseUnsigned(msPart);
        if (dash < 0) {
            return new Parsed(new StreamId(ms, missingSeq), true);
        }
        String seqPart = s.substring(dash + 1);
        if (allowSeqStar && seqPart.equals("*")) {
            return new Parsed(new StreamId(ms, 0), false);
        }
        return new Parsed(new StreamId(ms, parseUnsigned(seqPart)), true);
    }

    /** An ID where {@code -} and {@code +} are accepted. */
    public static StreamId parseLoose(byte[] arg, long missingSeq) {
        return parse(arg, missingSeq, false, false).id();
    }

    /** An ID where {@code -} and {@code +} are refused. */
    public static StreamId parseStrict(byte[] arg) {
        return parse(arg, 0, true, false).id();
    }

    /**
     * A range bound: a {@code (} prefix makes it exclusive (strict ID after it). Returns the
     * inclusive bound, or throws {@code ERR invalid start/end ID for the interval} when
     * excluding leaves nothing.
     */
    public static StreamId parseBound(byte[] arg, boolean start) {
        boolean exclusive = arg.length > 1 && arg[0] == '(';
        if (!exclusive) {
            return parseLoose(arg, start ? 0 : -1L);
        }
        byte[] rest = java.util.Arrays.copyOfRange(arg, 1, arg.length);
        StreamId id = parse(rest, start ? 0 : -1L, true, false).id();
        StreamId moved = start ? id.next() : id.previous();
        if (moved == null) {
            throw new RedisException(start ? "ERR invalid start ID for the interval" : "ERR invalid end ID for the interval");
        }
        return moved;
    }

    /**
     * Redis's {@code string2ull}: a canonical non-negative long, or what C's {@code strtoull}
     * accepts in full (leading blanks, a sign, leading zeros, values past 2^63).
     */
    static long parseUnsigned(String s) {
        byte[] b = s.getBytes(StandardCharsets.ISO_8859_1);
        if (Numbers.isLong(b)) {
            long v = Numbers.parseLong(b, INVALID);
            if (v < 0) {
                throw new RedisException(INVALID);
            }
            return v;
        }
        int i = 0;
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        boolean negative = false;
        if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            negative = s.charAt(i) == '-';
            i++;
        }
        if (i >= s.length()) {
            throw new RedisException(INVALID);
        }
        long v = 0;
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                throw new RedisException(INVALID);
            }
            long times10 = v * 10;
            if (Long.compareUnsigned(v, Long.divideUnsigned(-1L, 10)) > 0
                    || Long.compareUnsigned(times10 + (c - '0'), times10) < 0) {
                throw new RedisException(INVALID);
            }
            v = times10 + (c - '0');
        }
        return negative ? -v : v;
    }
}
