package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.DATA;
import static io.strata.redis.config.NotifyKeyspaceEvents.GENERIC;
import static io.strata.redis.config.NotifyKeyspaceEvents.NEW;

import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.keyspace.KeyMeta;
import io.strata.redis.keyspace.KeyStore;
import io.strata.redis.keyspace.LargeValues;
import io.strata.redis.keyspace.ObjectRef;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * COPY source destination [DB n] [REPLACE] and MOVE key db.
 *
 * <p>Both are type-blind: a key is its metadata record plus, when the metadata names an
 * object ({@link KeyMeta#isObject}: a collection, or a string too large to be inline), the
 * object's subspace {@code P 'o' db id ...}. Every type keeps its whole state there (its
 * header in the metadata payload after the id, its elements in the object), so copying both
 * copies the value whatever its type.
 *
 * <ul>
 *   <li>COPY gives the copy a new object id and copies every element: O(n) in one
 *       transaction.</li>
 *   <li>MOVE keeps the object id (ids are unique across databases) but objects live under
 *       their database, so it copies the elements to the target database's object space and
 *       clears the source's: also O(n).</li>
 * </ul>
 * A value too large for one transaction (FoundationDB's 10 MB of writes) is copied before the
 * command runs and claimed by it if the source did not change meanwhile ({@link StagedCopies});
 * one that changed in between is refused with an error before anything is written.
 * Both read the source serializably, so a concurrent change of it conflicts and one retries.
 *
 * <p>DUMP and RESTORE, the other way to copy a value, are in {@link DumpRestoreCommands}.
 */
final class KeyCopyCommands {
    private KeyCopyCommands() {
    }

    static void register(CommandTable t) {
        t.add("copy", -3, "write denyoom", 1, 2, 1, "keyspace", DATA, KeyCopyCommands::copy);
        t.add("move", 3, "write fast", 1, 1, 1, "keyspace", DATA, KeyCopyCommands::move);
        // A source too large for the command's transaction is copied before it runs (StagedCopies).
        t.stagesObjectOf("copy", 1, StagedCopies::stageCopy);
        t.stagesObjectOf("move", 1, StagedCopies::stageMove);
    }

    private static KeyStore keys(Invocation inv) {
        return inv.server().keys();
    }

    /** A database index argument as Redis's {@code getIntFromObjectOrReply} plus {@code selectDb}. */
    static int databaseArg(Invocation inv, int i) {
        long n = inv.longArg(i);
        if (n < Integer.MIN_VALUE || n > Integer.MAX_VALUE) {
            throw new RedisException(RedisException.NOT_INTEGER);
        }
        if (n < 0 || n >= inv.server().config().databases()) {
            throw new RedisException("ERR DB index is out of range");
        }
        return (int) n;
    }

    private static RedisException sameObject() {
        return new RedisException("ERR source and destination objects are the same");
    }

    private static CompletableFuture<Reply> copy(Invocation inv, Transaction tr) {
        int srcDb = inv.db();
        int dstDb = srcDb;
        boolean replace = false;
        for (int j = 3; j < inv.argc(); j++) {
            String opt = inv.option(j);
            if (opt.equals("REPLACE")) {
                replace = true;
            } else if (opt.equals("DB") && j + 1 < inv.argc()) {
                dstDb = databaseArg(inv, ++j);
            } else {
                throw RedisException.syntax();
            }
        }
        byte[] source = inv.arg(1);
        byte[] target = inv.arg(2);
        if (srcDb == dstDb && Arrays.equals(source, target)) {
            throw sameObject();
        }
        int toDb = dstDb;
        boolean mayReplace = replace;
        CompletableFuture<KeyMeta> src = keys(inv).get(tr, srcDb, source, inv.now());
        return src.thenCompose(m -> {
            if (m == null) {
                return Invocation.done(Reply.ZERO);
            }
            return keys(inv).getForWrite(tr, toDb, target, inv.now()).thenCompose(existing -> {
                if (existing != null && !mayReplace) {
                    return Invocation.done(Reply.ZERO);
                }
                if (!m.isObject()) {
                    putCopy(inv, tr, toDb, target, existing, m);
                    return Invocation.done(Reply.ONE);
                }
                LargeValues large = inv.server().largeValues();
                return StagedCopies.usable(tr, keys(inv), large, source, srcDb, m, toDb).thenCompose(staged -> {
                    if (staged != null) {
                        KeyMeta copy = StagedCopies.copyMeta(m, staged);
                        return large.claim(tr, staged).thenApply(ignored -> {
                            putCopy(inv, tr, toDb, target, existing, copy);
                            return Reply.ONE;
                        });
                    }
                    // The elements are read (and their size checked) before the id is allocated: a
                    // refused COPY writes nothing.
                    Subspace from = keys(inv).objectOf(srcDb, m);
                    return readElements(tr, from).thenCompose(elements -> keys(inv).newObjectId(tr).thenApply(id -> {
                        KeyMeta copy = m.withPayload(ObjectRef.payload(id, ObjectRef.header(m)));
                        writeElements(tr, elements, from, keys(inv).objectOf(toDb, copy));
                        putCopy(inv, tr, toDb, target, existing, copy);
                        return Reply.ONE;
                    }));
                });
            });
        });
    }

    /** Writes COPY's destination and its events: Redis deletes a replaced destination and creates the key anew. */
    private static void putCopy(Invocation inv, Transaction tr, int toDb, byte[] target, KeyMeta existing, KeyMeta copy) {
        if (existing != null) {
            keys(inv).events().publish(tr, NEW, "new", toDb, target);
        }
        keys(inv).put(tr, toDb, target, existing, copy);
        keys(inv).events().publish(tr, GENERIC, "copy_to", toDb, target);
    }

    private static CompletableFuture<Reply> move(Invocation inv, Transaction tr) {
        int srcDb = inv.db();
        int dstDb = databaseArg(inv, 2);
        if (srcDb == dstDb) {
            throw sameObject();
        }
        byte[] key = inv.arg(1);
        return keys(inv).getForWrite(tr, srcDb, key, inv.now()).thenCompose(m -> {
            if (m == null) {
                return Invocation.done(Reply.ZERO);
            }
            return keys(inv).getForWrite(tr, dstDb, key, inv.now()).thenCompose(existing -> {
                if (existing != null) {
                    return Invocation.done(Reply.ZERO);
                }
                LargeValues large = inv.server().largeValues();
                CompletableFuture<LargeValues.Staged> staged = m.isObject()
                        ? StagedCopies.usable(tr, keys(inv), large, key, srcDb, m, dstDb)
                        : CompletableFuture.completedFuture(null);
                // Staged: already under the destination database, with the same id.
                CompletableFuture<Void> elements = staged.thenCompose(s -> {
                    if (s != null) {
                        return large.claim(tr, s);
                    }
                    return m.isObject()
                            ? copyElements(tr, keys(inv).objectOf(srcDb, m), keys(inv).objectOf(dstDb, m)).thenApply(n -> null)
                            : CompletableFuture.<Void>completedFuture(null);
                });
                return elements.thenApply(n -> {
                    if (m.isObject()) {
                        tr.clear(keys(inv).objectOf(srcDb, m).range());
                    }
                    keys(inv).detach(tr, srcDb, key, m);
                    keys(inv).put(tr, dstDb, key, null, m);
                    keys(inv).events().publish(tr, GENERIC, "move_from", srcDb, key);
                    keys(inv).events().publish(tr, GENERIC, "move_to", dstDb, key);
                    return Reply.ONE;
                });
            });
        });
    }

    /** Copies every key under {@code from} to the same place under {@code to}; the number copied. */
    static CompletableFuture<Integer> copyElements(Transaction tr, Subspace from, Subspace to) {
        return readElements(tr, from).thenApply(elements -> {
            writeElements(tr, elements, from, to);
            return elements.size();
        });
    }

    /**
     * Every key under {@code from}, refused with an error when they are more than the copy can
     * write in this one transaction.
     */
    private static CompletableFuture<List<KeyValue>> readElements(Transaction tr, Subspace from) {
        return tr.getRange(from.range()).asList().thenApply(kvs -> {
            if (transactionBytes(kvs) > StringValues.MAX_IN_TRANSACTION) {
                throw new RedisException("ERR values that take more than " + StringValues.MAX_IN_TRANSACTION
                        + " bytes to store cannot be copied or moved (one FoundationDB transaction carries 10 MB)");
            }
            return kvs;
        });
    }

    /**
     * What writing {@code elements} again (under another object of the same id length, give or
     * take a byte) adds to a transaction's size, as FoundationDB counts it: each key's mutation
     * and write conflict range ({@link RestoredValues#written}).
     */
    static long transactionBytes(List<KeyValue> elements) {
        long bytes = 0;
        for (KeyValue kv : elements) {
            bytes += RestoredValues.written(kv.getKey().length + 1, kv.getValue().length);
        }
        return bytes;
    }

    /** Writes {@code elements}, read under {@code from}, at the same places under {@code to}. */
    private static void writeElements(Transaction tr, List<KeyValue> elements, Subspace from, Subspace to) {
        byte[] fromPrefix = from.getKey();
        byte[] toPrefix = to.getKey();
        for (KeyValue kv : elements) {
            byte[] k = kv.getKey();
            byte[] moved = new byte[toPrefix.length + k.length - fromPrefix.length];
            System.arraycopy(toPrefix, 0, moved, 0, toPrefix.length);
            System.arraycopy(k, fromPrefix.length, moved, toPrefix.length, k.length - fromPrefix.length);
            tr.set(moved, kv.getValue());
        }
    }
}
