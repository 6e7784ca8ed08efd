package io.strata.redis.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

/** Stream IDs: parsing as Redis's streamGenericParseIDOrReply and string2ull, unsigned order, neighbours. */
class StreamIdTest {
    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void parsesTheFormsRedisAccepts() {
        assertThat(StreamId.parseLoose(b("5"), 0)).isEqualTo(new StreamId(5, 0));
        assertThat(StreamId.parseLoose(b("5"), -1L)).isEqualTo(new StreamId(5, -1L));
        assertThat(StreamId.parseLoose(b("-"), 0)).isEqualTo(StreamId.MIN);
        assertThat(StreamId.parseLoose(b("+"), 0)).isEqualTo(StreamId.MAX);
        assertThat(StreamId.parseStrict(b("18446744073709551615-18446744073709551615"))).isEqualTo(StreamId.MAX);
        // strtoull's leniency past string2ll: a plus sign, leading zeros.
        assertThat(StreamId.parseStrict(b("+7-007"))).isEqualTo(new StreamId(7, 7));
        StreamId.Parsed star = StreamId.parse(b("9-*"), 0, true, true);
        assertThat(star.seqGiven()).isFalse();
        assertThat(star.id().ms()).isEqualTo(9);
    }

    @Test
    void refusesWhatRedisRefuses() {
        for (String bad : new String[] {"-1", "1-", "a-1", "1-2-3", "18446744073709551616", "", "9-*"}) {
            assertThatThrownBy(() -> StreamId.parseStrict(b(bad))).as(bad)
                    .hasMessage("ERR Invalid stream ID specified as stream command argument");
        }
        assertThatThrownBy(() -> StreamId.parseStrict(b("+"))).hasMessage("ERR Invalid stream ID specified as stream command argument");
        assertThatThrownBy(() -> StreamId.parseBound(b("(0-0"), false)).hasMessage("ERR invalid end ID for the interval");
    }

    @Test
    void ordersUnsignedAndEncodesInOrder() {
        StreamId big = new StreamId(-2L, 0);
        StreamId small = new StreamId(1, -1L);
        assertThat(big.compareTo(small)).isPositive();
        assertThat(java.util.Arrays.compareUnsigned(big.encode(), small.encode())).isPositive();
        assertThat(small.next()).isEqualTo(new StreamId(2, 0));
        assertThat(new StreamId(2, 0).previous()).isEqualTo(small);
        assertThat(StreamId.MAX.next()).isNull();
        assertThat(StreamId.MIN.previous()).isNull();
        assertThat(big.toString()).isEqualTo("18446744073709551614-0");
    }
}
