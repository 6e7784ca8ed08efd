package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * GEO commands over TCP. Every expected value here is what Redis 7.0.15 answered to the same
 * commands (scores, distances to four decimals, coordinates to seventeen, hashes, error
 * texts), so the geohash arithmetic is Redis's bit for bit; Redis's own geo unit, which
 * also fuzzes searches against a brute-force distance check, passes in full.
 */
class GeoCommandsTest extends SharedServerTestSupport {
    @BeforeEach
    void sicily() {
        jedis.del("Sicily", "dst", "points");
        assertThat(Raw.call(jedis, "GEOADD", "Sicily", "13.361389", "38.115556", "Palermo", "15.087269", "37.502669", "Catania"))
                .isEqualTo(2L);
    }

    private Object call(String... args) {
        return Raw.call(jedis, args);
    }

    @Test
    void geoaddStoresTheGeohashAsTheScore() {
        assertThat(call("ZSCORE", "Sicily", "Palermo")).isEqualTo("3479099956230698");
        assertThat(call("GEOADD", "Sicily", "NX", "CH", "13.361389", "38.115556", "Palermo", "12.758489", "38.788135", "edge1"))
                .isEqualTo(1L);
        assertThat(call("ZCARD", "Sicily")).isEqualTo(3L);
    }

    @Test
    void positionsHashesAndDistances() {
        assertThat(call("GEOPOS", "Sicily", "Palermo", "NonExisting"))
                .isEqualTo(Arrays.asList(List.of("13.36138933897018433", "38.11555639549629859"), null));
        assertThat(call("GEOHASH", "Sicily", "Palermo", "Catania", "nonexisting"))
                .isEqualTo(Arrays.asList("sqc8b49rny0", "sqdtr74hyu0", null));
        assertThat(call("GEODIST", "Sicily", "Palermo", "Catania")).isEqualTo("166274.1516");
        assertThat(call("GEODIST", "Sicily", "Palermo", "Catania", "km")).isEqualTo("166.2742");
        assertThat(call("GEODIST", "Sicily", "Palermo", "Catania", "MI")).isEqualTo("103.3182");
        assertThat(call("GEODIST", "Sicily", "Palermo", "Foo")).isNull();
        assertThat(call("GEODIST", "nokey", "a", "b")).isNull();
    }

    @Test
    void radiusSearchesWithTheirOptions() {
        assertThat(call("GEORADIUS", "Sicily", "15", "37", "100", "km")).isEqualTo(List.of("Catania"));
        assertThat(call("GEORADIUS", "Sicily", "15", "37", "200", "km", "WITHDIST", "WITHCOORD", "WITHHASH")).isEqualTo(List.of(
                List.of("Palermo", "190.4424", 3479099956230698L, List.of("13.36138933897018433", "38.11555639549629859")),
                List.of("Catania", "56.4413", 3479447370796909L, List.of("15.08726745843887329", "37.50266842333162032"))));
        assertThat(call("GEORADIUS", "Sicily", "15", "37", "200", "km", "DESC")).isEqualTo(List.of("Palermo", "Catania"));
        assertThat(call("GEORADIUSBYMEMBER", "Sicily", "Palermo", "200", "km", "WITHDIST"))
                .isEqualTo(List.of(List.of("Palermo", "0.0000"), List.of("Catania", "166.2742")));
    }

    @Test
    void geosearchByBoxAndStore() {
        Raw.call(jedis, "GEOADD", "Sicily", "12.758489", "38.788135", "edge1", "17.241510", "38.788135", "edge2");
        assertThat(call("GEOSEARCH", "Sicily", "FROMLONLAT", "15", "37", "BYBOX", "400", "400", "km", "ASC", "WITHDIST"))
                .isEqualTo(List.of(List.of("Catania", "56.4413"), List.of("Palermo", "190.4424"),
                        List.of("edge2", "279.7403"), List.of("edge1", "279.7405")));
        assertThat(call("GEOSEARCHSTORE", "dst", "Sicily", "FROMLONLAT", "15", "37", "BYBOX", "400", "400", "km",
                "ASC", "COUNT", "3", "STOREDIST")).isEqualTo(3L);
        assertThat(call("ZRANGE", "dst", "0", "-1", "WITHSCORES"))
                .isEqualTo(List.of("Catania", "56.441257870158204", "Palermo", "190.44242984775784", "edge2", "279.7403417843143"));
        assertThat(call("GEOSEARCHSTORE", "dst", "Sicily", "FROMLONLAT", "0", "0", "BYRADIUS", "1", "m")).isEqualTo(0L);
        assertThat(call("EXISTS", "dst")).isEqualTo(0L);
    }

    @Test
    void nearTheAntimeridianAndThePoles() {
        Raw.call(jedis, "GEOADD", "points", "0", "0", "a", "0.0001", "0", "b", "179.9999", "85", "c", "-179.9999", "-85", "d");
        assertThat(call("GEOSEARCH", "points", "FROMLONLAT", "0", "0", "BYRADIUS", "100", "km", "WITHDIST"))
                .isEqualTo(List.of(List.of("a", "0.0003"), List.of("b", "0.0110")));
        assertThat(call("GEOSEARCH", "points", "FROMLONLAT", "180", "85", "BYRADIUS", "500", "km", "WITHDIST"))
                .isEqualTo(List.of(List.of("c", "0.0010")));
        assertThat(call("GEOHASH", "points", "a", "b", "c", "d"))
                .isEqualTo(List.of("s0000000000", "s0000000420", "zzpgxczbvs0", "00bh2n0p470"));
    }

    @Test
    void errorsAsRedisWordsThem() {
        assertThatThrownBy(() -> Raw.call(jedis, "GEOADD", "Sicily", "200", "100", "bad"))
                .hasMessage("ERR invalid longitude,latitude pair 200.000000,100.000000");
        assertThatThrownBy(() -> Raw.call(jedis, "GEOADD", "Sicily", "XX", "NX", "13", "38", "x")).hasMessage("ERR syntax error");
        assertThatThrownBy(() -> Raw.call(jedis, "GEORADIUS", "Sicily", "15", "37", "-1", "km"))
                .hasMessage("ERR radius cannot be negative");
        assertThatThrownBy(() -> Raw.call(jedis, "GEORADIUS", "Sicily", "15", "37", "10", "parsecs"))
                .hasMessage("ERR unsupported unit provided. please use M, KM, FT, MI");
        assertThatThrownBy(() -> Raw.call(jedis, "GEOSEARCH", "Sicily", "FROMLONLAT", "15", "37", "BYRADIUS", "10", "km", "ANY"))
                .hasMessage("ERR the ANY argument requires COUNT argument");
        assertThatThrownBy(() -> Raw.call(jedis, "GEORADIUS", "Sicily", "15", "37", "200", "km", "STORE", "d", "WITHDIST"))
                .hasMessage("ERR STORE option in GEORADIUS is not compatible with WITHDIST, WITHHASH and WITHCOORD options");
        assertThatThrownBy(() -> Raw.call(jedis, "GEORADIUS", "Sicily", "15", "37", "200", "km", "COUNT", "0"))
                .hasMessage("ERR COUNT must be > 0");
        Raw.call(jedis, "SET", "str", "x");
        assertThatThrownBy(() -> Raw.call(jedis, "GEOADD", "str", "13", "38", "x")).hasMessageStartingWith("WRONGTYPE");
        assertThat(call("GEORADIUS", "nokey", "15", "37", "200", "km")).isEqualTo(List.of());
    }
}
