package io.strata.redis.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Turns a client's bytes into requests: each request is a {@code byte[][]} of its arguments,
 * the command name first. Both of Redis's request forms are read: the multibulk form
 * ({@code *2\r\n$4\r\nECHO\r\n$2\r\nhi\r\n}) that clients send, and the inline form
 * ({@code ECHO hi\r\n}) that people type into telnet, with Redis's quoting rules.
 *
 * <p>Input that breaks the protocol yields one {@link ProtocolException} (with Redis's wording)
 * and every later byte of the connection is discarded: the server replies with the error and
 * closes, as Redis does. A client whose unparsed input outgrows {@code client-query-buffer-limit}
 * is closed without a reply, as Redis closes it.
 *
 * <p>The limits are read for each request, so CONFIG SET proto-max-bulk-len applies to the
 * next one.
 *
 * <p>The parser keeps its place between reads, so an argument that arrives in many TCP
 * segments is copied once, not re-parsed from the start on every segment.
 *
 * <p>Concurrency: one instance per connection, used only on that connection's event loop.
 */
public final class RespDecoder extends ByteToMessageDecoder {
    private final Supplier<RespLimits> currentLimits;
    private final BooleanSupplier authRequired;
    private RespLimits limits;

    /** The request being read in multibulk form, or null between requests. */
    private byte[][] args;
    private int expected;
    private int filled;
    /** The length of the argument whose bytes are awaited, or -1 when its header is next. */
    private long bulkLength = -1;
    private boolean broken;

    /**
     * @param limits what one request may carry (read again for each request)
     * @param authRequired whether the connection must still authenticate (smaller limits apply)
     */
    public RespDecoder(Supplier<RespLimits> limits, BooleanSupplier authRequired) {
        this.currentLimits = limits;
        this.authRequired = authRequired;
        this.limits = limits.get();
    }

    /** A decoder with fixed limits. */
    public RespDecoder(RespLimits limits, BooleanSupplier authRequired) {
        this(() -> limits, authRequired);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (broken) {
            in.skipBytes(in.readableBytes());
            return;
        }
        try {
            if (in.readableBytes() > limits.maxQueryBytes()) {
                throw ProtocolException.silent("client reached max query buffer length");
            }
            while (in.isReadable()) {
                if (args == null) {
                    limits = currentLimits.get();
                    if (in.getByte(in.readerIndex()) != '*') {
                        byte[][] inline = readInline(in);
                        if (inline == null) {
                            return;
                        }
                        if (inline.length > 0) {
                            out.add(inline);
                        }
                        continue;
                    }
                    if (!readMultibulkHeader(in)) {
                        return;
                    }
                    if (args == null) {
                        continue;
                    }
                }
                if (!readArguments(in)) {
                    return;
                }
                out.add(filled == args.length ? args : Arrays.copyOf(args, filled));
                args = null;
            }
        } catch (ProtocolException e) {
            broken = true;
            args = null;
            in.skipBytes(in.readableBytes());
            out.add(e);
        }
    }

    /** Reads {@code *N\r\n}; false when the line is not complete yet. Leaves {@code args} null for N ≤ 0. */
    private boolean readMultibulkHeader(ByteBuf in) {
        int end = lineEnd(in, "too big mbulk count string");
        if (end < 0) {
            return false;
        }
        long count = parseLong(in, in.readerIndex() + 1, end);
        skipLine(in, end);
        if (count == Long.MIN_VALUE || count > limits.maxArguments()) {
            throw new ProtocolException("invalid multibulk length");
        }
        if (count > limits.unauthenticatedMaxArguments() && authRequired.getAsBoolean()) {
            throw new ProtocolException("unauthenticated multibulk length");
        }
        if (count > 0) {
            expected = (int) count;
            // A client may announce far more arguments than it sends: grow as they arrive.
            args = new byte[(int) Math.min(count, 1024)][];
            filled = 0;
            bulkLength = -1;
        }
        return true;
    }

    /** Reads {@code $len\r\n<bytes>\r\n} until the request is complete; false when more input is needed. */
    private boolean readArguments(ByteBuf in) {
        while (filled < expected) {
            if (bulkLength < 0) {
                if (!in.isReadable()) {
                    return false;
                }
                int end = lineEnd(in, "too big bulk count string");
                if (end < 0) {
                    return false;
                }
                byte first = in.getByte(in.readerIndex());
                if (first != '$') {
                    throw new ProtocolException("expected '$', got '" + (char) (first & 0xff) + "'");
                }
                long length = parseLong(in, in.readerIndex() + 1, end);
                skipLine(in, end);
                if (length < 0 || length > limits.maxBulkBytes()) {
                    throw new ProtocolException("invalid bulk length");
                }
                if (length > limits.unauthenticatedMaxBulkBytes() && authRequired.getAsBoolean()) {
                    throw new ProtocolException("unauthenticated bulk length");
                }
                bulkLength = length;
            }
            if (in.readableBytes() < bulkLength + 2) {
                return false;
            }
            byte[] arg = new byte[(int) bulkLength];
            in.readBytes(arg);
            in.skipBytes(2);
            if (filled == args.length) {
                args = Arrays.copyOf(args, (int) Math.min((long) args.length * 2, expected));
            }
            args[filled++] = arg;
            bulkLength = -1;
        }
        return true;
    }

    /** Reads one inline request; null when its line is not complete yet. */
    private byte[][] readInline(ByteBuf in) {
        int end = lineEnd(in, "too big inline request");
        if (end < 0) {
            return null;
        }
        int start = in.readerIndex();
        int stop = end > start && in.getByte(end - 1) == '\r' ? end - 1 : end;
        byte[] line = new byte[stop - start];
        in.getBytes(start, line);
        in.readerIndex(end + 1);
        byte[][] split = InlineSplitter.split(line);
        if (split == null) {
            throw new ProtocolException("unbalanced quotes in request");
        }
        return split;
    }

    /** Index of the next {@code \n}, or -1 if absent; too long a wait for one is a protocol error. */
    private int lineEnd(ByteBuf in, String tooLong) {
        int end = in.indexOf(in.readerIndex(), in.writerIndex(), (byte) '\n');
        if (end < 0 && in.readableBytes() > limits.maxInlineBytes()) {
            throw new ProtocolException(tooLong);
        }
        return end;
    }

    private static void skipLine(ByteBuf in, int newline) {
        in.readerIndex(newline + 1);
    }

    /**
     * Parses the decimal between {@code from} and the line end (before {@code \r\n}) as Redis's
     * {@code string2ll} does: optional minus, no plus, no leading zeros, no spaces. Returns
     * {@link Long#MIN_VALUE} when it is not such a number.
     */
    private static long parseLong(ByteBuf in, int from, int newline) {
        int to = newline > from && in.getByte(newline - 1) == '\r' ? newline - 1 : newline;
        if (from >= to) {
            return Long.MIN_VALUE;
        }
        boolean negative = in.getByte(from) == '-';
        int i = negative ? from + 1 : from;
        if (i >= to || to - i > 19) {
            return Long.MIN_VALUE;
        }
        if (in.getByte(i) == '0' && to - i > 1) {
            return Long.MIN_VALUE;
        }
        long value = 0;
        for (; i < to; i++) {
            byte b = in.getByte(i);
            if (b < '0' || b > '9') {
                return Long.MIN_VALUE;
            }
            value = value * 10 + (b - '0');
            if (value < 0) {
                return Long.MIN_VALUE;
            }
        }
        return negative ? -value : value;
    }
}
