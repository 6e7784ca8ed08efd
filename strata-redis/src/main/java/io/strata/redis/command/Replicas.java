package io.strata.redis.command;

import io.strata.redis.config.ServerSettings;

/**
 * Redis's {@code min-replicas-to-write}: a master refuses writes while fewer than that many
 * replicas are connected with a lag of at most {@code min-replicas-max-lag} seconds (0 turns
 * the check off). Strata's server has no replicas — durability comes from the database, and
 * every server process on it sees every write — so any {@code min-replicas-to-write} above 0
 * refuses writes, as a Redis master without replicas does: commands flagged {@code write},
 * EXEC of a transaction that queued one, scripts that do not declare {@code no-writes}, and
 * write commands called from scripts without flags.
 */
public final class Replicas {
    /** Redis's reply, {@code shared.noreplicaserr}. */
    public static final String NOREPLICAS = "NOREPLICAS Not enough good replicas to write.";

    private Replicas() {
    }

    /** Whether writes are refused now: a replica count is required, and this server has none. */
    public static boolean tooFewForWrites(ServerSettings settings) {
        return settings.replicasRequired();
    }
}
