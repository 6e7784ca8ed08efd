package io.strata.cli.shell;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The status document's JSON: reading, and json_spirit's pretty layout for {@code status json}. */
class ShellJsonTest {
    @Test
    void readsValuesAndSortsKeys() {
        Object v = Json.parse(" {\"b\": [1, 2.5, -3e2, true, null, \"s\\u0041\\n\"], \"a\": {}} ");
        assertThat(v).isInstanceOf(Map.class);
        Map<?, ?> m = (Map<?, ?>) v;
        assertThat(List.copyOf(m.keySet())).isEqualTo(List.of("a", "b"));
        assertThat(m.get("b")).isEqualTo(List.of(1L, 2.5, -300.0, true, Json.NULL, "sA\n"));
    }

    @Test
    void refusesBrokenJson() {
        assertThatThrownBy(() -> Json.parse("{\"a\": }")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Json.parse("{\"a\": 1} x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Json.parse("[1, 2")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void writesJsonSpiritsPrettyLayout() {
        Object v = Json.parse("{\"b\":[1,2.5,{}],\"a\":\"x\\u00e9\\\"\\\\\",\"c\":[]}");
        assertThat(Json.pretty(v)).isEqualTo("""
                {
                    "a" : "x\\u00C3\\u00A9\\"\\\\",
                    "b" : [
                        1,
                        2.5,
                        {
                        }
                    ],
                    "c" : [
                    ]
                }""");
    }

    @Test
    void doublesAsPercent17g() {
        assertThat(Json.formatDouble(0.1)).isEqualTo("0.10000000000000001");
        assertThat(Json.formatDouble(1.0)).isEqualTo("1");
        assertThat(Json.formatDouble(1e20)).isEqualTo("1e+20");
        assertThat(Json.formatDouble(1.5e-5)).isEqualTo("1.5e-05");
        assertThat(Json.formatDouble(5e-5)).isEqualTo("5.0000000000000002e-05");
        assertThat(Json.formatDouble(1e16)).isEqualTo("10000000000000000");
        assertThat(Json.formatDouble(1.2345678901234568e17)).isEqualTo("1.2345678901234568e+17");
        assertThat(Json.formatDouble(-0.0)).isEqualTo("-0");
        assertThat(Json.formatDouble(12345.678)).isEqualTo("12345.678");
    }
}
