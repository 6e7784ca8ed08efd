package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.redis.command.AclCategories;
import io.strata.redis.command.CommandFlag;
import io.strata.redis.command.CommandSpec;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.reference.CommandDoc;
import io.strata.redis.command.reference.CommandReference;
import io.strata.redis.commands.CommandGroups;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every command the server registers says what Redis 7.0 says of it: arity, flags, legacy key
 * positions and ACL categories (the reference keeps Redis 7.0.15's own COMMAND INFO). A group
 * that registers a command differently from Redis fails here, naming the command.
 */
class CommandTableConformanceTest {

    @Test
    void registeredCommandsMatchRedis70() {
        CommandTable table = new CommandTable();
        CommandGroups.registerAll(table);
        CommandReference reference = CommandReference.redis70();
        List<String> mismatches = new ArrayList<>();
        List<CommandSpec> all = new ArrayList<>();
        for (CommandSpec spec : table.all()) {
            all.add(spec);
            all.addAll(table.subcommands(spec.name()));
        }
        for (CommandSpec spec : all) {
            CommandDoc doc = reference.get(spec.name());
            if (doc == null) {
                mismatches.add(spec.name() + ": not a Redis 7.0 command");
                continue;
            }
            CommandDoc.RedisInfo redis = doc.redis();
            Set<String> flags = new HashSet<>();
            spec.flags().stream().filter(CommandFlag::shown).forEach(f -> flags.add(f.wireName()));
            Set<String> redisFlags = new HashSet<>(redis.flags());
            redisFlags.remove("movablekeys");
            flags.remove("movablekeys");
            List<String> categories = new ArrayList<>();
            AclCategories.inRedisOrder(spec.categories()).forEach(c -> categories.add("@" + c));
            if (spec.arity() != redis.arity()) {
                mismatches.add(spec.name() + ": arity " + spec.arity() + ", Redis " + redis.arity());
            }
            if (!flags.equals(redisFlags)) {
                mismatches.add(spec.name() + ": flags " + flags + ", Redis " + redisFlags);
            }
            if (spec.firstKey() != redis.firstKey() || spec.lastKey() != redis.lastKey() || spec.step() != redis.step()) {
                mismatches.add(spec.name() + ": keys " + spec.firstKey() + " " + spec.lastKey() + " " + spec.step()
                        + ", Redis " + redis.firstKey() + " " + redis.lastKey() + " " + redis.step());
            }
            if (!new HashSet<>(categories).equals(new HashSet<>(redis.categories()))) {
                mismatches.add(spec.name() + ": categories " + categories + ", Redis " + redis.categories());
            }
        }
        assertThat(mismatches).isEmpty();
    }
}
