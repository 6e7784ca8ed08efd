package io.strata.cli.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.redis.command.RedisConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A redis.conf's lines as the server takes them: core settings, parameters, user lines, errors naming the line. */
class RedisConfFileTest {
    @TempDir
    Path dir;

    private RedisConfFile.Read read(String... lines) throws Exception {
        Path conf = dir.resolve("redis.conf");
        Files.write(conf, List.of(lines));
        return RedisConfFile.read(conf, RedisConfig.defaults());
    }

    @Test
    void userLinesDeclareAclUsersInOrder() throws Exception {
        RedisConfig c = read("port 7000", "user alice on >secret ~cache:* +get", "# a comment", "user default off").settings();
        assertThat(c.port()).isEqualTo(7000);
        assertThat(c.users()).containsExactly(List.of("alice", "on", ">secret", "~cache:*", "+get"), List.of("default", "off"));
    }

    @Test
    void aUserLineWithoutANameNamesItsLine() {
        assertThatThrownBy(() -> read("port 7000", "user")).hasMessageContaining("line 2").hasMessageContaining("a name is needed");
    }

    @Test
    void anUnknownDirectiveNamesItsLine() {
        assertThatThrownBy(() -> read("nosuch 1")).hasMessageContaining("line 1: unsupported directive 'nosuch'");
    }
}
