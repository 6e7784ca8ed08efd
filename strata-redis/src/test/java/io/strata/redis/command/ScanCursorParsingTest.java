package io.strata.redis.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@link ScanArgs#parseCursor} against what C's {@code strtoul} makes of each spelling in Redis 7.0.15. No server. */
class ScanCursorParsingTest {

    private static long parse(String s) {
        return ScanArgs.parseCursor(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    @Test
    void signsWrapModulo2To64() {
        assertThat(parse("+1")).isEqualTo(1);
        assertThat(parse("-0")).isZero();
        assertThat(parse("-1")).isEqualTo(-1L); // 18446744073709551615 unsigned
        assertThat(parse("-18446744073709551615")).isEqualTo(1);
        assertThat(parse("18446744073709551615")).isEqualTo(-1L);
        assertThat(parse("007")).isEqualTo(7);
    }

    @Test
    void theArgumentEndsAtItsFirstNul() {
        assertThat(parse("")).isZero();
        assertThat(parse("\0")).isZero();
        assertThat(parse("\0abc")).isZero();
        assertThat(parse("12\0abc")).isEqualTo(12);
    }

    @Test
    void anythingElseIsAnInvalidCursor() {
        for (String s : new String[] {"+", "-", "+-1", " 1", "\u000b1", "1 ", "0x1", "1.0", "abc", "18446744073709551616",
                "18446744073709551619", "99999999999999999999", "-18446744073709551616", "+\0"}) {
            assertThatThrownBy(() -> parse(s)).as(s).hasMessage("ERR invalid cursor");
        }
    }
}
