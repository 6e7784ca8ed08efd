package io.strata.redis.commands;

import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;
import io.strata.redis.command.ServerContext;
import io.strata.redis.keyspace.KeyMeta;
import io.strata.redis.keyspace.KeyStore;
import io.strata.redis.keyspace.LargeValues;
import io.strata.redis.keyspace.ObjectRef;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

/**
 * COPY and MOVE of a value too large to be written in the command's one transaction: its
 * object's keys are copied before the command runs, over transactions of about
 * {@link StagedCollections#CHUNK_BYTES}, into an object no key names yet ({@link LargeValues},
 * like a staged string); the command's transaction then claims it if the source is still the
 * value that was copied, and names it in the destination's metadata. So the command stays
 * atomic: the destination gets the source as it was when the command ran, or the command
 * fails.
 *
 * <p>How the source is known unchanged: the stager reads the source's metadata and its whole
 * object in one read-only transaction and keeps a SHA-256 digest of them (object id, header,
 * every key and value) as the staged value's guard; the command reads the source again,
 * serializably, and digests it the same way. (Reading is what FoundationDB allows without
 * limit; writing is what one transaction cannot do.) Equal, the staged copy is the source's
 * value at the command's read version too. Different (a write came between, or an earlier
 * command of the same MULTI changed the source), the command copies in its own transaction as
 * always — and refuses a value too large for it with the usual error, leaving the staged copy
 * to be cleared. The key's change stamp would be a cheaper test, but reading it after this
 * transaction moved it is {@code accessed_unreadable}, which fails the whole commit.
 *
 * <p>Objects belong to their database: COPY stages under a fresh id in the destination
 * database, MOVE under the source's own id in the destination database (ids are unique across
 * databases), so MOVE still keeps the id.
 */
final class StagedCopies {
    private StagedCopies() {
    }

    /** {@link io.strata.redis.command.CommandTable.ObjectStager} for COPY source destination [DB n] [REPLACE]. */
    static CompletableFuture<?> stageCopy(ServerContext server, byte[][] args, int db) {
        if (args.length < 3) {
            return null;
        }
        Integer toDb = db;
        for (int j = 3; j < args.length; j++) {
            String opt = new String(args[j], StandardCharsets.ISO_8859_1).toUpperCase(Locale.ROOT);
            if (opt.equals("DB") && j + 1 < args.length) {
                toDb = database(server, args[++j]);
            } else if (!opt.equals("REPLACE")) {
                return null;
            }
        }
        return toDb == null ? null : stage(server, args[1], db, toDb, false);
    }

    /** {@link io.strata.redis.command.CommandTable.ObjectStager} for MOVE key db. */
    static CompletableFuture<?> stageMove(ServerContext server, byte[][] args, int db) {
        if (args.length != 3) {
            return null;
        }
        Integer toDb = database(server, args[2]);
        return toDb == null || toDb == db ? null : stage(server, args[1], db, toDb, true);
    }

    /** A database index argument, or null when the command will refuse it. */
    private static Integer database(ServerContext server, byte[] arg) {
        try {
            long n = Long.parseLong(new String(arg, StandardCharsets.US_ASCII));
            return n >= 0 && n < server.config().databases() ? (int) n : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** What the stager read of the source, in one transaction. */
    private record Source(KeyMeta meta, Subspace object, List<KeyValue> elements) {
    }

    private static CompletableFuture<?> stage(ServerContext server, byte[] key, int db, int toDb, boolean move) {
        KeyStore keys = server.keys();
        long now = server.clock().getAsLong();
        CompletableFuture<Source> read = server.database().readAsync(tr -> keys.get(tr, db, key, now).thenCompose(m -> {
            if (m == null || !m.isObject()) {
                return CompletableFuture.completedFuture(null);
            }
            Subspace object = keys.objectOf(db, m);
            return tr.getRange(object.range()).asList().thenApply(elements -> new Source(m, object, elements));
        }));
        return read.thenCompose(source -> {
            if (source == null || KeyCopyCommands.transactionBytes(source.elements()) <= StringValues.MAX_IN_TRANSACTION) {
                return CompletableFuture.completedFuture(null); // the command copies it itself
            }
            LargeValues large = server.largeValues();
            byte[] sourceId = ObjectRef.id(source.meta());
            return large.stageObject(toDb, key, source.elements().size(), digest(source.meta(), source.object(), source.elements()),
                    tr -> move ? CompletableFuture.completedFuture(sourceId) : keys.newObjectId(tr),
                    staged -> writeChunks(server, large, staged, source));
        });
    }

    private static CompletableFuture<Void> writeChunks(ServerContext server, LargeValues large, LargeValues.Staged staged,
                                                       Source source) {
        byte[] from = source.object().getKey();
        byte[] to = server.keys().keyspace().object(staged.db(), staged.id()).getKey();
        List<byte[][]> pairs = new ArrayList<>(source.elements().size());
        for (KeyValue kv : source.elements()) {
            pairs.add(new byte[][] {moved(kv.getKey(), from, to), kv.getValue()});
        }
        return StagedCollections.writePairs(server.database(), large, staged, pairs);
    }

    private static byte[] moved(byte[] key, byte[] from, byte[] to) {
        byte[] k = new byte[to.length + key.length - from.length];
        System.arraycopy(to, 0, k, 0, to.length);
        System.arraycopy(key, from.length, k, to.length, key.length - from.length);
        return k;
    }

    /** SHA-256 of the value a key's metadata {@code meta} names: its object id, header and object's keys and values. */
    private static byte[] digest(KeyMeta meta, Subspace object, List<KeyValue> elements) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
        ByteBuffer length = ByteBuffer.allocate(4);
        digestPart(sha, length, ObjectRef.id(meta), 0);
        digestPart(sha, length, ObjectRef.header(meta), 0);
        int prefix = object.getKey().length;
        for (KeyValue kv : elements) {
            digestPart(sha, length, kv.getKey(), prefix);
            digestPart(sha, length, kv.getValue(), 0);
        }
        return sha.digest();
    }

    private static void digestPart(MessageDigest sha, ByteBuffer length, byte[] bytes, int from) {
        sha.update(length.clear().putInt(bytes.length - from).array());
        sha.update(bytes, from, bytes.length - from);
    }

    /**
     * In the command's transaction: the staged copy of {@code key}'s value for database
     * {@code toDb}, if there is one and the source (whose metadata the command read as
     * {@code meta}) has not changed since it was made; else null, and the command copies in its
     * own transaction. Reads the source's object serializably.
     */
    static CompletableFuture<LargeValues.Staged> usable(Transaction tr, KeyStore keys, LargeValues large, byte[] key,
                                                       int db, KeyMeta meta, int toDb) {
        LargeValues.Staged staged = large.stagedFor(key);
        if (staged == null || staged.guard() == null || staged.db() != toDb) {
            return CompletableFuture.completedFuture(null);
        }
        Subspace object = keys.objectOf(db, meta);
        return tr.getRange(object.range()).asList().thenApply(elements ->
                MessageDigest.isEqual(digest(meta, object, elements), staged.guard()) ? staged : null);
    }

    /** The destination's metadata: the source's {@code meta}, naming the staged object instead. */
    static KeyMeta copyMeta(KeyMeta meta, LargeValues.Staged staged) {
        return meta.withPayload(ObjectRef.payload(staged.id(), ObjectRef.header(meta)));
    }
}
