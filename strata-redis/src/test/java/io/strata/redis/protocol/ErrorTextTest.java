package io.strata.redis.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@link ErrorText}: arguments keep their bytes through a Java string. No server. */
class ErrorTextTest {

    @Test
    void everyByteRoundTrips() {
        byte[] all = new byte[255];
        for (int i = 0; i < all.length; i++) {
            all[i] = (byte) (i + 1); // every byte but NUL, which ends the text
        }
        byte[] expected = all.clone();
        expected['\r' - 1] = ' ';
        expected['\n' - 1] = ' ';
        assertThat(ErrorText.encode(ErrorText.of(all))).isEqualTo(expected);
    }

    @Test
    void limitsCountBytesAndStopAtNul() {
        byte[] e = "\u00e9\u00e9\u00e9".getBytes(StandardCharsets.UTF_8); // 6 bytes
        assertThat(ErrorText.encode(ErrorText.of(e, 3))).containsExactly(0xc3, 0xa9, 0xc3);
        assertThat(ErrorText.of(new byte[] {'a', 0, 'b'})).isEqualTo("a");
    }

    @Test
    void ordinaryTextIsUtf8() {
        assertThat(ErrorText.encode("ERR \u00e9 \r\n")).isEqualTo("ERR \u00e9   ".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void trimmedStripsNewlinesAtBothEndsOnly() {
        assertThat(ErrorText.trimmed("\r\nERR a\nb\r\n\n")).isEqualTo("ERR a\nb");
    }
}
