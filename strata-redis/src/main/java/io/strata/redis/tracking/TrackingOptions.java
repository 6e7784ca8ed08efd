package io.strata.redis.tracking;

import java.util.List;

/**
 * The options of one {@code CLIENT TRACKING ON}, as parsed and checked against each other.
 *
 * @param redirect the client id invalidations go to, 0 for the connection itself
 * @param bcast    broadcasting mode: every change of a key under one of {@code prefixes}
 * @param optin    keys are tracked only for the command after {@code CLIENT CACHING yes}
 * @param optout   keys are tracked except for the command after {@code CLIENT CACHING no}
 * @param noloop   no invalidation for the connection's own changes
 * @param prefixes the BCAST prefixes (empty: every key)
 */
public record TrackingOptions(long redirect, boolean bcast, boolean optin, boolean optout, boolean noloop,
                              List<byte[]> prefixes) {
    public TrackingOptions {
        prefixes = List.copyOf(prefixes);
    }
}
