package io.strata.redis.commands;

import io.strata.layers.interning.StringInterner;
import io.strata.redis.command.ServerContext;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * SADD of more members than one transaction can intern (each new member writes its forward key
 * and its share of a reverse block: about 65,000 short members fill FoundationDB's 10 MB): the
 * members are interned before the command runs, {@link #CHUNK} to a transaction. The
 * interner never deletes or rewrites a mapping, so interning ahead is harmless whatever the
 * command then does (it may still answer WRONGTYPE), and the command's own transaction only
 * reads the mappings — at snapshot, found present, so without read conflict ranges
 * ({@link StringInterner}) — and writes the set's bitmap containers. The SADD stays one
 * transaction, as atomic as any.
 */
final class PreInterning {
    /** Members above which an SADD interns them first. */
    static final int ABOVE = 10_000;
    /** Members interned per transaction. */
    static final int CHUNK = 10_000;

    private PreInterning() {
    }

    /** {@link io.strata.redis.command.CommandTable.ObjectStager} for SADD key member [member ...]. */
    static CompletableFuture<?> stageSadd(ServerContext server, byte[][] args, int db) {
        if (args.length - 2 <= ABOVE) {
            return null;
        }
        StringInterner interner = server.keys().interner();
        List<byte[]> members = Arrays.asList(args).subList(2, args.length);
        for (byte[] m : members) {
            if (m.length > interner.maxStringBytes()) {
                return null; // the command refuses it, with its own error
            }
        }
        CompletableFuture<Void> done = CompletableFuture.completedFuture(null);
        for (int from = 0; from < members.size(); from += CHUNK) {
            List<byte[]> chunk = members.subList(from, Math.min(members.size(), from + CHUNK));
            done = done.thenCompose(ignored -> interner.internAll(server.database(), chunk).thenApply(ids -> null));
        }
        return done;
    }
}
