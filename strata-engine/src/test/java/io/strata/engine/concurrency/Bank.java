package io.strata.engine.concurrency;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The bank of the isolation tests: {@code n} accounts whose balances always sum to
 * {@code n * initial}. A transfer reads two balances and writes both; an audit reads every
 * balance in one transaction. Under serializable isolation every audit sees the exact total,
 * and the final balances are the initial ones plus the deltas of the transfers that committed.
 *
 * <h2>Key layout</h2>
 * <pre>
 * ("bank", "acct", i)          -> balance, 8-byte little-endian signed (negative allowed, so
 *                                 transfers never depend on a balance and always commute)
 * ("bank", "done", id)         -> "" : marker of an applied idempotent transfer
 * </pre>
 */
final class Bank {
    static final Subspace ACCOUNTS = new Subspace(Tuple.from("bank", "acct"));
    static final Subspace DONE = new Subspace(Tuple.from("bank", "done"));

    final int accounts;
    final long initial;

    Bank(int accounts, long initial) {
        this.accounts = accounts;
        this.initial = initial;
    }

    long total() {
        return accounts * initial;
    }

    static byte[] account(int i) {
        return ACCOUNTS.pack(Tuple.from(i));
    }

    static byte[] encode(long v) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
    }

    static long decode(byte[] v) {
        return v == null ? 0 : ByteBuffer.wrap(v).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }

    void open(Database db) {
        db.run(tr -> {
            for (int i = 0; i < accounts; i++) {
                tr.set(account(i), encode(initial));
            }
            return null;
        });
    }

    /** Moves {@code amount} from one account to another: two reads, two writes. Not idempotent. */
    static void transfer(Transaction tr, int from, int to, long amount) {
        long a = decode(tr.get(account(from)).join());
        long b = decode(tr.get(account(to)).join());
        tr.set(account(from), encode(a - amount));
        tr.set(account(to), encode(b + amount));
    }

    /**
     * The same transfer made idempotent by a marker written in the same transaction: a retry
     * after {@code commit_unknown_result} finds the marker and does nothing.
     *
     * @return true when this call applied the transfer, false when the marker said it was done
     */
    static boolean transferOnce(Transaction tr, long id, int from, int to, long amount) {
        byte[] marker = DONE.pack(Tuple.from(id));
        if (tr.get(marker).join() != null) {
            return false;
        }
        transfer(tr, from, to, amount);
        tr.set(marker, new byte[0]);
        return true;
    }

    /** Every balance, read as one range in the transaction. */
    long[] balances(ReadTransaction tr) {
        List<KeyValue> rows = tr.getRange(ACCOUNTS.range()).asList().join();
        if (rows.size() != accounts) {
            throw new AssertionError("audit saw " + rows.size() + " accounts, expected " + accounts);
        }
        long[] out = new long[accounts];
        for (KeyValue kv : rows) {
            out[(int) ACCOUNTS.unpack(kv.getKey()).getLong(0)] = decode(kv.getValue());
        }
        return out;
    }

    long[] balances(Database db) {
        return db.read(this::balances);
    }

    /**
     * One audit, in one of three shapes chosen by {@code shape}: a range read, point reads in
     * a random order, or a range iterator. Returns the total it saw.
     */
    long audit(ReadTransaction tr, int shape, Random random) {
        long sum = 0;
        switch (shape % 3) {
            case 0 -> {
                for (long v : balances(tr)) {
                    sum += v;
                }
            }
            case 1 -> {
                List<Integer> order = new ArrayList<>();
                for (int i = 0; i < accounts; i++) {
                    order.add(i);
                }
                Collections.shuffle(order, random);
                for (int i : order) {
                    byte[] v = tr.get(account(i)).join();
                    if (v == null) {
                        throw new AssertionError("audit found account " + i + " missing");
                    }
                    sum += decode(v);
                }
            }
            default -> {
                int n = 0;
                for (KeyValue kv : tr.getRange(ACCOUNTS.range())) {
                    sum += decode(kv.getValue());
                    n++;
                }
                if (n != accounts) {
                    throw new AssertionError("audit saw " + n + " accounts, expected " + accounts);
                }
            }
        }
        return sum;
    }

    /**
     * An auditor: audits in fresh transactions until {@code stop}, at least once, and records
     * the first wrong total in {@code failure}.
     */
    Runnable auditor(Database db, long seed, AtomicBoolean stop, AtomicInteger audits, AtomicReference<String> failure) {
        return () -> {
            Random random = new Random(seed);
            int shape = 0;
            do {
                int s = shape++;
                long seen = db.read(tr -> audit(tr, s, random));
                audits.incrementAndGet();
                if (seen != total()) {
                    failure.compareAndSet(null, "audit (shape " + s % 3 + ") saw total " + seen + ", expected " + total());
                }
            } while (!stop.get());
        };
    }

    /** FoundationDB's error code somewhere in {@code t}'s causes, or -1. */
    static int errorCode(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof FDBException) {
                return ((FDBException) c).getCode();
            }
        }
        return -1;
    }
}
