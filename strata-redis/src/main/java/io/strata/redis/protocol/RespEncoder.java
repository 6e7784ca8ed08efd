package io.strata.redis.protocol;

import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;

/**
 * Writes a {@link Reply} in the protocol a connection negotiated ({@code HELLO 2} or
 * {@code HELLO 3}).
 */
public final class RespEncoder {
    private static final byte[] CRLF = {'\r', '\n'};

    private RespEncoder() {
    }

    /** Appends {@code reply} to {@code out} in RESP{@code protocol} (2 or 3). */
    public static void write(Reply reply, int protocol, ByteBuf out) {
        boolean resp3 = protocol >= 3;
        if (reply instanceof Reply.Bulk) {
            byte[] v = ((Reply.Bulk) reply).value;
            header(out, '$', v.length);
            out.writeBytes(v);
            out.writeBytes(CRLF);
        } else if (reply instanceof Reply.Int) {
            header(out, ':', ((Reply.Int) reply).value);
        } else if (reply instanceof Reply.Simple) {
            line(out, '+', ((Reply.Simple) reply).text);
        } else if (reply instanceof Reply.Error) {
            // Newlines become spaces, as in Redis; echoed arguments go back as their own bytes.
            out.writeByte('-');
            out.writeBytes(ErrorText.encode(((Reply.Error) reply).message));
            out.writeBytes(CRLF);
        } else if (reply instanceof Reply.Null) {
            if (resp3) {
                out.writeByte('_').writeBytes(CRLF);
            } else {
                header(out, ((Reply.Null) reply).array ? '*' : '$', -1);
            }
        } else if (reply instanceof Reply.Array) {
            Reply.Array array = (Reply.Array) reply;
            int size = array.items.size();
            if (reply instanceof Reply.MapReply) {
                if (resp3) {
                    header(out, '%', size / 2);
                } else {
                    header(out, '*', size);
                }
            } else if (reply instanceof Reply.SetReply) {
                header(out, resp3 ? '~' : '*', size);
            } else if (reply instanceof Reply.Push) {
                header(out, resp3 ? '>' : '*', size);
            } else {
                header(out, '*', size);
            }
            for (Reply item : array.items) {
                write(item, protocol, out);
            }
        } else if (reply instanceof Reply.Sequence) {
            for (Reply item : ((Reply.Sequence) reply).replies) {
                write(item, protocol, out);
            }
        } else if (reply instanceof Reply.DoubleReply) {
            Reply.DoubleReply d = (Reply.DoubleReply) reply;
            String text = d.text != null ? d.text : RedisDoubles.format(d.value);
            if (resp3) {
                line(out, ',', text);
            } else {
                byte[] b = text.getBytes(StandardCharsets.US_ASCII);
                header(out, '$', b.length);
                out.writeBytes(b).writeBytes(CRLF);
            }
        } else if (reply instanceof Reply.Bool) {
            boolean v = ((Reply.Bool) reply).value;
            if (resp3) {
                line(out, '#', v ? "t" : "f");
            } else {
                header(out, ':', v ? 1 : 0);
            }
        } else if (reply instanceof Reply.BigNumber) {
            String digits = ((Reply.BigNumber) reply).digits;
            if (resp3) {
                line(out, '(', digits);
            } else {
                byte[] b = digits.getBytes(StandardCharsets.UTF_8);
                header(out, '$', b.length);
                out.writeBytes(b).writeBytes(CRLF);
            }
        } else if (reply instanceof Reply.Verbatim) {
            byte[] text = ((Reply.Verbatim) reply).text.getBytes(StandardCharsets.UTF_8);
            if (resp3) {
                header(out, '=', text.length + 4);
                out.writeBytes("txt:".getBytes(StandardCharsets.US_ASCII));
            } else {
                header(out, '$', text.length);
            }
            out.writeBytes(text).writeBytes(CRLF);
        } else {
            throw new IllegalArgumentException("unknown reply " + reply.getClass());
        }
    }

    private static void header(ByteBuf out, char type, long n) {
        out.writeByte(type);
        writeDecimal(out, n);
        out.writeBytes(CRLF);
    }

    private static void line(ByteBuf out, char type, String text) {
        out.writeByte(type);
        out.writeCharSequence(text, StandardCharsets.UTF_8);
        out.writeBytes(CRLF);
    }

    private static void writeDecimal(ByteBuf out, long n) {
        if (n >= 0 && n < 10) {
            out.writeByte('0' + (int) n);
            return;
        }
        out.writeCharSequence(Long.toString(n), StandardCharsets.US_ASCII);
    }
}
