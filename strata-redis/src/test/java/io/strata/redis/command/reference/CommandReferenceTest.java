package io.strata.redis.command.reference;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Redis 7.0 reference: complete, parsed, and deriving what Redis derives from it. */
class CommandReferenceTest {
    private final CommandReference reference = CommandReference.redis70();

    @Test
    void everyRedis70CommandIsDescribed() {
        // Redis 7.0.15's COMMAND COUNT is 240; with subcommands the reference has more.
        long top = reference.all().keySet().stream().filter(n -> !n.contains("|")).count();
        assertThat(top).isEqualTo(240);
        assertThat(reference.all().values()).allSatisfy(d -> {
            assertThat(d.summary()).isNotBlank();
            assertThat(d.since()).matches("\\d+\\.\\d+\\.\\d+");
            assertThat(d.group()).isNotBlank();
        });
    }

    @Test
    void argumentsNestAsRedisDocumentsThem() {
        CommandDoc set = reference.get("set");
        assertThat(set.arguments()).extracting(ArgumentDoc::name).containsExactly("key", "value", "condition", "get", "expiration");
        ArgumentDoc expiration = set.arguments().get(4);
        assertThat(expiration.type()).isEqualTo("oneof");
        assertThat(expiration.optional()).isTrue();
        assertThat(expiration.arguments()).extracting(ArgumentDoc::token).containsExactly("EX", "PX", "EXAT", "PXAT", "KEEPTTL");
        assertThat(set.arguments().get(0).keySpecIndex()).isZero();
    }

    @Test
    void movableKeysAreDerivedAsRedisDerivesThem() {
        assertThat(reference.all().values()).allSatisfy(d ->
                assertThat(KeyFinder.movableKeys(d)).as(d.name()).isEqualTo(d.redis().flags().contains("movablekeys")));
    }

    @Test
    void keysComeFromSpecificationsAndOwnRules() {
        assertThat(keys("lmove", "k1", "k2", "left", "right")).containsExactly(
                new KeyFinder.FoundKey(1, List.of("RW", "access", "delete")), new KeyFinder.FoundKey(2, List.of("RW", "insert")));
        assertThat(keys("sort", "k1", "store", "k2")).containsExactly(
                new KeyFinder.FoundKey(1, List.of("RO", "access")), new KeyFinder.FoundKey(3, List.of("OW", "update")));
        assertThat(keys("zunionstore", "dest", "2", "a", "b", "weights", "1", "2")).extracting(KeyFinder.FoundKey::position)
                .containsExactly(1, 3, 4);
        assertThat(keys("xread", "count", "2", "streams", "s1", "s2", "0", "0")).extracting(KeyFinder.FoundKey::position)
                .containsExactly(4, 5);
        assertThat(keys("eval", "return 1", "0")).isNull();
        assertThat(keys("zunionstore", "dest", "x", "a")).isNull();
        assertThat(keys("lcs", "a", "b")).extracting(KeyFinder.FoundKey::position).containsExactly(1, 2);
        assertThat(keys("sort", "k", "limit", "0", "1", "by", "store", "store", "d")).extracting(KeyFinder.FoundKey::position)
                .as("BY's argument is not an option").containsExactly(1, 8);
        assertThat(keys("migrate", "h", "1", "k", "0", "5")).extracting(KeyFinder.FoundKey::position).containsExactly(3);
        assertThat(keys("migrate", "h", "1", "", "0", "5", "auth", "keys", "keys", "a", "b")).extracting(KeyFinder.FoundKey::position)
                .as("AUTH's password may read KEYS").containsExactly(9, 10);
    }

    private List<KeyFinder.FoundKey> keys(String... line) {
        byte[][] args = new byte[line.length][];
        for (int i = 0; i < line.length; i++) {
            args[i] = line[i].getBytes(StandardCharsets.UTF_8);
        }
        return KeyFinder.find(reference.get(line[0]), args);
    }

    @Test
    void theFormatIsCheckedLineByLine() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> CommandReference.parse(List.of("x", "    bogus 1")))
                .hasMessageContaining("line 2");
    }
}
