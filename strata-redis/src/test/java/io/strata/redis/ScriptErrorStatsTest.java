package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Error statistics of scripts as Redis 7.0 keeps them: an error a called command answers (or
 * a call refused before it runs, counted as that command's rejected call) is counted once,
 * when the command answers it; the script's reply does not count it again when it passes it
 * on, raised by {@code redis.call} or returned from {@code redis.pcall}, whose error table
 * carries {@code ignore_error_stats_update = true}. An error the script makes itself is
 * counted with the script's reply.
 */
class ScriptErrorStatsTest extends SharedServerTestSupport {
    @BeforeEach
    void resetStats() {
        jedis.configResetStat();
    }

    private String info(String section) {
        return jedis.info(section);
    }

    @Test
    void aCommandsErrorRaisedByTheScriptIsCountedOnce() {
        assertThatThrownBy(() -> jedis.eval("return redis.call('select', 99)")).hasMessageStartingWith("ERR DB index is out of range");
        assertThat(info("errorstats")).contains("errorstat_ERR:count=1");
        assertThat(info("stats")).contains("total_error_replies:1");
        assertThat(info("commandstats")).contains("cmdstat_select:calls=1,").contains("rejected_calls=0,failed_calls=1");
    }

    @Test
    void aCommandsErrorCaughtByPcallIsCountedThoughTheScriptSucceeds() {
        Object r = jedis.eval("local t = redis.pcall('select', 99) "
                + "if t['err'] == 'ERR DB index is out of range' and t['ignore_error_stats_update'] then return 1 end return 0");
        assertThat(r).isEqualTo(1L);
        assertThat(info("errorstats")).contains("errorstat_ERR:count=1");
        assertThat(info("stats")).contains("total_error_replies:1");
        assertThat(info("commandstats")).containsPattern("cmdstat_eval:calls=1,.*failed_calls=0");
    }

    @Test
    void aWriteFromAReadOnlyScriptIsARejectedCall() {
        assertThatThrownBy(() -> jedis.evalReadonly("return redis.call('set', 'x', 'y')", java.util.List.of("x"), java.util.List.of()))
                .hasMessageStartingWith("ERR Write commands are not allowed from read-only scripts.");
        assertThat(info("errorstats")).contains("errorstat_ERR:count=1");
        assertThat(info("stats")).contains("total_error_replies:1");
        assertThat(info("commandstats")).containsPattern("cmdstat_set:calls=0,.*rejected_calls=1,failed_calls=0");
    }

    @Test
    void anErrorTheScriptMakesIsCountedWithItsReply() {
        assertThatThrownBy(() -> jedis.eval("return redis.error_reply('MY_CODE custom')")).hasMessage("MY_CODE custom");
        assertThat(info("errorstats")).contains("errorstat_MY_CODE:count=1");
        assertThat(info("stats")).contains("total_error_replies:1");
    }
}
