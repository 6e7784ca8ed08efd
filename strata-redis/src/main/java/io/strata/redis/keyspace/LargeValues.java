package io.strata.redis.keyspace;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;
import io.strata.layers.blob.BlobStore;
import io.strata.redis.protocol.RedisException;

import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * String values too large for the transaction of the command that sets them (FoundationDB
 * carries at most 10 MB per transaction; Redis strings go to 512 MB). Such a value is
 * <em>staged</em> before its command runs: written over many transactions into a fresh
 * object that no key names yet, then <em>claimed</em> by the command's own small
 * transaction, which points the key at it. So SET of a 100 MB value is as atomic as SET of a
 * short one: readers see the old value or the new one, and NX, XX, GET and KEEPTTL decide
 * inside the command's transaction as always.
 *
 * <h2>Key layout</h2>
 * <pre>
 * P 'l' id[17]       -&gt; db[2] | lease end[8]: a staged object not yet claimed
 * P 'o' db id ...    -&gt; the object: a {@link BlobStore} whose one blob, named by the empty
 *                       string, is the value (the layout of every large string)
 * </pre>
 * {@code id} is {@code 0xFF} and 16 random bytes, like every large string's id; the lease
 * end is a database version, big-endian.
 *
 * <h2>Life of a staged value</h2>
 * <ol>
 *   <li>{@link #stage}: one transaction writes the record (lease: 60 s of versions, the blob
 *       layer's rule); the blob layer writes the value into the object across transactions
 *       and switches it in there (its own staging, invisible outside the object); one more
 *       transaction renews the record's lease, failing if a cleanup removed it.</li>
 *   <li>{@link #claim}, in the command's transaction: reads the record serializably and
 *       clears it. The key's new metadata names the object in the same transaction.</li>
 *   <li>{@link #release}, after the command: if the record is still there (the command did
 *       not take the value: NX refused, an error, a WRONGTYPE), the object and the record
 *       are cleared. A claimed value has no record, so release leaves it alone.</li>
 * </ol>
 * A server that dies between 1 and 3 leaves a record: {@link #cleanup}, run at start and
 * then periodically by any server on the database, clears every record whose lease has
 * ended, with its object. Because claim and cleanup both read and write the record, one of
 * them commits first and the other sees it: a cleaned value cannot be claimed (the command
 * fails with an error, nothing changes), a claimed one is not cleaned.
 *
 * <p>Commands find the staged value of an argument by the argument itself: staging registers
 * the argument's byte array, by identity, for as long as the request runs; EXEC's queued
 * requests keep the same arrays, so the same lookup serves them.
 *
 * <p>Concurrency: the registry is a synchronized identity map; everything else is
 * transactions.
 */
public final class LargeValues {
    /**
     * The largest string value a command writes inside its own transaction: FoundationDB's
     * 10,000,000-byte transaction with room for the command's other writes. Larger ones are
     * staged.
     */
    public static final int MAX_IN_TRANSACTION = 9_000_000;
    /** The blob layer's lease rule: 60 s at FoundationDB's one million versions a second. */
    private static final long LEASE_VERSIONS = 60_000_000L;
    /** The name of the one blob in a large string's object: the layout of every large string. */
    public static final byte[] VALUE_BLOB = new byte[0];

    /**
     * A value staged for a command: the object it lives in, under database {@code db}, and
     * what its stager saw of the value's source ({@code guard}, null if none), for the command
     * to check that the source did not change since.
     */
    public record Staged(byte[] id, int db, long length, byte[] guard) {
        public Staged(byte[] id, int db, long length) {
            this(id, db, length, null);
        }
    }

    private final Database database;
    private final Keyspace keyspace;
    private final Subspace records;
    private final long leaseVersions;
    private final Map<byte[], Staged> byArgument = Collections.synchronizedMap(new IdentityHashMap<>());
    /**
     * How many entries {@link #byArgument} holds, read without its lock: nearly every SET asks
     * {@link #stagedFor} while nothing is staged, and the map's lock and the argument's first
     * identity hash were 3% of a pipelined SET's CPU. A staging is registered before the
     * command that claims it runs (that command runs after the staging's future completed), so
     * a command asking about a staged argument always sees a count above zero.
     */
    private final AtomicInteger stagedCount = new AtomicInteger();

    public LargeValues(Database database, Keyspace keyspace) {
        this(database, keyspace, LEASE_VERSIONS);
    }

    /** With another lease, in database versions (tests use 0: every record is abandoned at once). */
    public LargeValues(Database database, Keyspace keyspace, long leaseVersions) {
        this.database = database;
        this.keyspace = keyspace;
        this.records = keyspace.area('l');
        this.leaseVersions = leaseVersions;
    }

    /**
     * Reads, over as many transactions as it takes, the value held by the large string object
     * whose keys start with {@code objectPrefix} (the object must not change meanwhile); null if
     * it holds none.
     */
    public static CompletableFuture<byte[]> readObject(Database db, byte[] objectPrefix) {
        return new BlobStore(new Subspace(objectPrefix)).read(db, VALUE_BLOB);
    }

    /** A fresh id for a large string's object: no read needed, see {@code StringValues}. */
    public static byte[] newObjectId() {
        byte[] id = new byte[17];
        ThreadLocalRandom.current().nextBytes(id);
        id[0] = (byte) 0xFF;
        return id;
    }

    /**
     * Writes {@code value} into a fresh object of database {@code db} and registers it as the
     * staged value of the argument array {@code value} until {@link #release}.
     */
    public CompletableFuture<Staged> stage(int db, byte[] value) {
        return stage(db, value, value);
    }

    /**
     * Writes {@code value} into a fresh object of database {@code db} and registers it as what
     * the argument array {@code argument} stands for (RESTORE's payload: the string it holds)
     * until {@link #release}.
     */
    public CompletableFuture<Staged> stage(int db, byte[] argument, byte[] value) {
        Staged staged = new Staged(newObjectId(), db, value.length);
        byte[] record = records.pack(staged.id());
        return database.runAsync(tr -> renew(tr, record, db))
                .thenCompose(ignored -> new BlobStore(keyspace.object(db, staged.id())).write(database, VALUE_BLOB, value))
                .thenCompose(ignored -> database.runAsync(tr -> tr.get(record).thenCompose(current -> {
                    if (current == null) {
                        throw new RedisException("ERR the large value was abandoned while it was being written; try again");
                    }
                    return renew(tr, record, db);
                })))
                .thenApply(ignored -> {
                    register(argument, staged);
                    return staged;
                })
                .exceptionallyCompose(failure -> discard(staged)
                        .handle((ignored, discardFailure) -> null)
                        .thenCompose(ignored -> CompletableFuture.failedFuture(failure)));
    }

    /**
     * Stages a value other than a string (RESTORE's big collections): allocates its object id
     * with {@code newId} in the transaction that writes the record, then lets {@code writer}
     * fill the object across as many transactions as it needs — each of which should call
     * {@link #inLease} — and registers it as what {@code argument} stands for until
     * {@link #release}. Claimed, released and cleaned up like a staged string.
     *
     * @param length what {@link Staged#length()} reports: the value's element count
     * @param guard what {@link Staged#guard()} reports
     */
    public CompletableFuture<Staged> stageObject(int db, byte[] argument, long length, byte[] guard,
                                                 java.util.function.Function<Transaction, CompletableFuture<byte[]>> newId,
                                                 java.util.function.Function<Staged, CompletableFuture<Void>> writer) {
        CompletableFuture<Staged> created = database.runAsync(tr -> newId.apply(tr).thenCompose(id -> {
            Staged staged = new Staged(id, db, length, guard);
            return renew(tr, records.pack(id), db).thenApply(ignored -> staged);
        }));
        return created.thenCompose(staged -> writer.apply(staged)
                .thenCompose(ignored -> database.runAsync(tr -> inLease(tr, staged)))
                .thenApply(ignored -> {
                    register(argument, staged);
                    return staged;
                })
                .exceptionallyCompose(failure -> discard(staged)
                        .handle((ignored, discardFailure) -> null)
                        .thenCompose(ignored -> CompletableFuture.<Staged>failedFuture(failure))));
    }

    /**
     * In a transaction that writes part of a staged object: renews its lease, failing with
     * an error if a cleanup found the lease ended and removed the object meanwhile.
     */
    public CompletableFuture<Void> inLease(Transaction tr, Staged staged) {
        byte[] record = records.pack(staged.id());
        return tr.get(record).thenCompose(current -> {
            if (current == null) {
                throw new RedisException("ERR the large value was abandoned while it was being written; try again");
            }
            return renew(tr, record, staged.db());
        });
    }

    private void register(byte[] argument, Staged staged) {
        if (byArgument.put(argument, staged) == null) {
            stagedCount.incrementAndGet();
        }
    }

    /** The staged value of an argument array, or null if it was not staged. */
    public Staged stagedFor(byte[] argument) {
        return stagedCount.get() == 0 ? null : byArgument.get(argument);
    }

    /**
     * Takes the staged value for a key, in the command's transaction: fails with an error if
     * it was cleaned up meanwhile. The caller writes the key's metadata naming
     * {@link Staged#id()} in the same transaction.
     */
    public CompletableFuture<Void> claim(Transaction tr, Staged staged) {
        byte[] record = records.pack(staged.id());
        return tr.get(record).thenAccept(current -> {
            if (current == null) {
                throw new RedisException("ERR the large value was abandoned before it was stored; try again");
            }
            tr.clear(record);
        });
    }

    /** Forgets the argument's staged value, clearing it unless a command claimed it. */
    public CompletableFuture<Void> release(byte[] argument) {
        Staged staged = byArgument.remove(argument);
        if (staged != null) {
            stagedCount.decrementAndGet();
        }
        return staged == null ? CompletableFuture.completedFuture(null) : discard(staged);
    }

    /** Clears every staged object whose lease has ended (its writer died); the number cleared. */
    public CompletableFuture<Integer> cleanup() {
        return database.runAsync(tr -> tr.getReadVersion().thenCompose(now ->
                tr.getRange(records.range()).asList().thenApply(entries -> {
                    int cleared = 0;
                    for (KeyValue entry : entries) {
                        ByteBuffer value = ByteBuffer.wrap(entry.getValue());
                        int db = value.getShort() & 0xFFFF;
                        long leaseEnd = value.getLong();
                        if (leaseEnd < now) {
                            byte[] id = records.unpack(entry.getKey()).getBytes(0);
                            tr.clear(keyspace.object(db, id).range());
                            tr.clear(entry.getKey());
                            cleared++;
                        }
                    }
                    return cleared;
                })));
    }

    private CompletableFuture<Void> discard(Staged staged) {
        byte[] record = records.pack(staged.id());
        return database.runAsync(tr -> tr.get(record).thenAccept(current -> {
            if (current != null) {
                tr.clear(keyspace.object(staged.db(), staged.id()).range());
                tr.clear(record);
            }
        }));
    }

    private CompletableFuture<Void> renew(Transaction tr, byte[] record, int db) {
        return tr.getReadVersion().thenAccept(version ->
                tr.set(record, ByteBuffer.allocate(10).putShort((short) db).putLong(version + leaseVersions).array()));
    }
}
