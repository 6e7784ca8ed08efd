package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Arguments echoed in error replies come back as their own bytes, cut at a NUL and with
 * newlines as spaces, as Redis 7.0.15 sends them (each expected line is Redis's). Strata used
 * to decode them as UTF-8, so bytes 0x80 and above came back as EF BF BD.
 */
class ErrorArgumentBytesTest extends ServerTestSupport {

    private static byte[] b(String latin1) {
        return latin1.getBytes(StandardCharsets.ISO_8859_1);
    }

    private byte[] error(String... args) throws Exception {
        try (RawConnection c = new RawConnection(server.port())) {
            byte[][] bytes = new byte[args.length][];
            for (int i = 0; i < args.length; i++) {
                bytes[i] = b(args[i]);
            }
            c.sendBytes(bytes);
            return c.lineBytes();
        }
    }

    @Test
    void unknownCommandEchoesRawBytes() throws Exception {
        assertThat(error("foo\u00ff\u00fe", "bar")).isEqualTo(b("-ERR unknown command 'foo\u00ff\u00fe', with args beginning with: 'bar' "));
        // UTF-8 stays as it came: two bytes, not one character re-encoded.
        assertThat(error("foo\u0000zz", "a\u0000b", "\u00c3\u00a9"))
                .isEqualTo(b("-ERR unknown command 'foo', with args beginning with: 'a' '\u00c3\u00a9' "));
        assertThat(error("foo", "\r\n")).isEqualTo(b("-ERR unknown command 'foo', with args beginning with: '  ' "));
    }

    @Test
    void unknownCommandCutsAt128BytesAsRedisDoes() throws Exception {
        String x = "x".repeat(200);
        String y = "\u00e9".repeat(200);
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        expected.writeBytes(b("-ERR unknown command '" + x.substring(0, 128) + "', with args beginning with: '"
                + y.substring(0, 128) + "' "));
        assertThat(error(x, y, "z")).isEqualTo(expected.toByteArray());
    }

    @Test
    void unknownSubcommandsEchoRawBytes() throws Exception {
        assertThat(error("OBJECT", "x\u00ff")).isEqualTo(b("-ERR unknown subcommand 'x\u00ff'. Try OBJECT HELP."));
        assertThat(error("CLIENT", "x\u00ff\n")).isEqualTo(b("-ERR unknown subcommand 'x\u00ff '. Try CLIENT HELP."));
        assertThat(error("SCRIPT", "\u00e9")).isEqualTo(b("-ERR unknown subcommand '\u00e9'. Try SCRIPT HELP."));
        assertThat(error("acl", "\u00fe", "x")).isEqualTo(b("-ERR unknown subcommand '\u00fe'. Try ACL HELP."));
        assertThat(error("XINFO", "\u00ff\u0000x")).isEqualTo(b("-ERR unknown subcommand '\u00ff'. Try XINFO HELP."));
        assertThat(error("PUBSUB", "\u00ff")).isEqualTo(b("-ERR unknown subcommand '\u00ff'. Try PUBSUB HELP."));
    }

    @Test
    void unsupportedOptionIsTrimmedAtItsEndsLikeAddReplyErrorFormat() throws Exception {
        jedis.set("k", "v");
        assertThat(error("EXPIRE", "k", "10", "\n")).isEqualTo(b("-ERR Unsupported option "));
        assertThat(error("EXPIRE", "k", "10", "a\nb\n")).isEqualTo(b("-ERR Unsupported option a b"));
        assertThat(error("EXPIRE", "k", "10", "\u00ff\r\nx")).isEqualTo(b("-ERR Unsupported option \u00ff  x"));
        assertThat(error("EXPIRE", "k", "10", "y\u0000z")).isEqualTo(b("-ERR Unsupported option y"));
    }
}
