package io.strata.redis.command;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The Redis 7.0 features this server does not offer, by command name (or
 * {@code container|subcommand}), so that the {@code ERR unknown command} or subcommand reply
 * says why: modules, replication and cluster mode's RESTORE-ASKING (docs/redis.md, "Not
 * supported"). CLUSTER, ASKING, READONLY and READWRITE are commands here, answering as a Redis
 * without cluster support does; so is REPLICAOF, whose {@code NO ONE} a master accepts.
 * Consulted only for names the command table lacks, so a group that implements one of them
 * later needs no change here.
 */
public final class UnsupportedFeatures {
    private static final Map<String, Set<String>> FEATURES = Map.of(
            "modules are", Set.of("module"),
            "replication is", Set.of("sync", "psync", "replconf", "failover"),
            "cluster mode is", Set.of("restore-asking"));

    private UnsupportedFeatures() {
    }

    /** Why {@code command} is unknown, e.g. {@code modules are not supported by Strata's Redis-compatible server}; null if not one of these. */
    public static String noteFor(String command) {
        String name = command.toLowerCase(Locale.ROOT);
        for (Map.Entry<String, Set<String>> e : FEATURES.entrySet()) {
            if (e.getValue().contains(name)) {
                return e.getKey() + " not supported by Strata's Redis-compatible server";
            }
        }
        return null;
    }
}
