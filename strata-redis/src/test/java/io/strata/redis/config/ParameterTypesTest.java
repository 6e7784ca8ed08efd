package io.strata.redis.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Parameter values read and printed as Redis 7.0's CONFIG SET and CONFIG GET do. */
class ParameterTypesTest {
    private static String canonical(String parameter, String value) throws ConfigException {
        ConfigParameter p = ConfigCatalog.redis70().lookup(parameter);
        return p.type().canonical(value, p.defaultValue());
    }

    @Test
    void memoryUnitsAreDecimalOrBinary() throws ConfigException {
        assertThat(canonical("maxmemory", "1k")).isEqualTo("1000");
        assertThat(canonical("maxmemory", "1KB")).isEqualTo("1024");
        assertThat(canonical("maxmemory", "2gb")).isEqualTo("2147483648");
        assertThat(canonical("maxmemory", "7b")).isEqualTo("7");
        assertThatThrownBy(() -> canonical("maxmemory", "-1")).hasMessage("argument must be a memory value");
        assertThatThrownBy(() -> canonical("maxmemory", "1tb")).hasMessage("argument must be a memory value");
        assertThat(canonical("maxmemory-clients", "10%")).isEqualTo("10%");
        assertThatThrownBy(() -> canonical("maxmemory-clients", "x")).hasMessage("argument must be a memory or percent value");
    }

    @Test
    void integersAreStrictAndBounded() {
        assertThatThrownBy(() -> canonical("hz", "+5")).hasMessage("argument couldn't be parsed into an integer");
        assertThatThrownBy(() -> canonical("active-expire-effort", "11")).hasMessage("argument must be between 1 and 10 inclusive");
        assertThatThrownBy(() -> canonical("unixsocketperm", "9")).hasMessage("argument couldn't be parsed as an octal number");
    }

    @Test
    void enumsAndFlagSetsPrintInTheirOwnOrder() throws ConfigException {
        assertThat(canonical("maxmemory-policy", "ALLKEYS-LRU")).isEqualTo("allkeys-lru");
        assertThat(canonical("shutdown-on-sigint", "force now nosave")).isEqualTo("nosave now force");
        assertThat(canonical("shutdown-on-sigint", "default")).isEqualTo("default");
        assertThatThrownBy(() -> canonical("shutdown-on-sigint", "save nosave"))
                .hasMessage("shutdown options SAVE and NOSAVE can't be used simultaneously");
    }

    @Test
    void specialParametersKeepRedisSyntax() throws ConfigException {
        assertThat(canonical("notify-keyspace-events", "KExg$lshztde")).isEqualTo("AKE");
        assertThat(canonical("notify-keyspace-events", "Egx")).isEqualTo("gxE");
        assertThatThrownBy(() -> canonical("notify-keyspace-events", "Q")).hasMessage("Invalid event class character. Use 'Ag$lshzxeKEtmdn'.");
        assertThat(canonical("client-output-buffer-limit", "pubsub 64mb 16mb 90"))
                .isEqualTo("normal 0 0 0 slave 268435456 67108864 60 pubsub 67108864 16777216 90");
        assertThatThrownBy(() -> canonical("client-output-buffer-limit", "master 1 1 1"))
                .hasMessage("Invalid client class specified in buffer limit configuration.");
        assertThat(canonical("save", "3600 1 300 100")).isEqualTo("3600 1 300 100");
        assertThat(canonical("latency-tracking-info-percentiles", "50.0 99 99.90")).isEqualTo("50 99 99.9");
    }
}
