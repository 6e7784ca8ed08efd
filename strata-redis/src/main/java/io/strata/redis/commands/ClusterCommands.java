package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.LOCAL;

import io.strata.redis.command.CommandTable;
import io.strata.redis.command.reference.CommandDoc;
import io.strata.redis.command.reference.CommandReference;
import io.strata.redis.protocol.RedisException;

import java.util.Map;

/**
 * CLUSTER (every Redis 7.0 subcommand), ASKING, READONLY and READWRITE, answered as a Redis
 * server without cluster support answers them: {@code ERR This instance has cluster support
 * disabled}. Clients probe with these to tell a cluster from a single server, so they get the
 * answer they expect rather than an unknown command.
 */
final class ClusterCommands {
    static final String DISABLED = "ERR This instance has cluster support disabled";

    private ClusterCommands() {
    }

    static void register(CommandTable t) {
        t.add("asking", 1, "fast", 0, 0, 0, "connection", LOCAL, (inv, tr) -> disabled());
        t.add("readonly", 1, "loading stale fast", 0, 0, 0, "connection", LOCAL, (inv, tr) -> disabled());
        t.add("readwrite", 1, "loading stale fast", 0, 0, 0, "connection", LOCAL, (inv, tr) -> disabled());
        t.addContainer("cluster");
        for (Map.Entry<String, CommandDoc> e : CommandReference.redis70().all().entrySet()) {
            if (e.getKey().startsWith("cluster|")) {
                CommandDoc.RedisInfo info = e.getValue().redis();
                StringBuilder categories = new StringBuilder();
                info.categories().forEach(c -> categories.append(c.substring(1)).append(' '));
                t.addSubcommand("cluster", e.getKey().substring("cluster|".length()), info.arity(),
                        String.join(" ", info.flags()), 0, 0, 0, categories.toString(), LOCAL, (inv, tr) -> disabled());
            }
        }
    }

    private static <T> T disabled() {
        throw new RedisException(DISABLED);
    }
}
