package io.strata.redis.blocking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Timeouts read as Redis 7.0.15's getTimeoutFromObjectOrReply reads them (long double); expected answers are real Redis's. */
class BlockTimeoutTest {
    private static long millis(String s) {
        return BlockTimeout.parseSeconds(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    @Test
    void readsWhatStrtoldReads() {
        assertThat(millis("0")).isZero();
        assertThat(millis("0.0001")).isEqualTo(1);
        assertThat(millis("0.001")).isEqualTo(1);
        assertThat(millis("1.5")).isEqualTo(1500);
        assertThat(millis("0x0.1")).isEqualTo(63); // 62.5 ms, rounded up
        assertThat(millis("-0.0001")).isZero();
        // 1e-400 is a long double: 1 ms, where a double would read 0 (no timeout).
        assertThat(millis("1e-400")).isEqualTo(1);
    }

    @Test
    void refusals() {
        for (String bad : new String[] {"", " 1", "1 ", "0.01\u0000", "x", "nan"}) {
            assertThatThrownBy(() -> millis(bad)).as(bad).hasMessage("ERR timeout is not a float or out of range");
        }
        for (String negative : new String[] {"-1", "1e400", "inf", "9223372036854775.808"}) {
            assertThatThrownBy(() -> millis(negative)).as(negative).hasMessage("ERR timeout is negative");
        }
    }
}
