package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.DATA;

import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.config.NotifyKeyspaceEvents;
import io.strata.redis.command.Numbers;
import io.strata.redis.keyspace.KeyMeta;
import io.strata.redis.keyspace.KeyStore;
import io.strata.redis.keyspace.RedisType;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The bit commands on strings: SETBIT, GETBIT, BITCOUNT, BITPOS, BITOP (BITFIELD has its own
 * class). Values are read and written whole through {@link StringValues}; each command runs in
 * one transaction, parses every argument before reading, and checks every error before its
 * only write. A command that would not change the value does not write it, so WATCH is not
 * disturbed (Redis signals no change then either).
 */
final class BitCommands {
    static final String BAD_OFFSET = "ERR bit offset is not an integer or out of range";

    private BitCommands() {
    }

    static void register(CommandTable t) {
        t.add("setbit", 4, "write denyoom", 1, 1, 1, "bitmap", DATA, BitCommands::setbit);
        t.add("getbit", 3, "readonly fast", 1, 1, 1, "bitmap", DATA, BitCommands::getbit);
        t.add("bitcount", -2, "readonly", 1, 1, 1, "bitmap", DATA, BitCommands::bitcount);
        t.add("bitpos", -3, "readonly", 1, 1, 1, "bitmap", DATA, BitCommands::bitpos);
        t.add("bitop", -4, "write denyoom", 2, -1, 1, "bitmap", DATA, BitCommands::bitop);
    }

    private static KeyStore keys(Invocation inv) {
        return inv.server().keys();
    }

    /** A string key's value, or null when the key is absent. */
    static CompletableFuture<byte[]> valueOf(Invocation inv, ReadTransaction tr, KeyMeta m) {
        return m == null ? CompletableFuture.completedFuture(null) : StringValues.read(tr, inv.server().keys(), inv.db(), m);
    }

    /**
     * A bit offset as Redis's {@code getBitOffsetFromArgument}: a non-negative integer whose
     * byte lies within 512 MB; with {@code bits > 0}, {@code #n} means {@code n * bits}.
     */
    static long bitOffset(byte[] arg, int bits) {
        boolean hash = bits > 0 && arg.length > 0 && arg[0] == '#';
        long offset = Numbers.parseLong(hash ? Arrays.copyOfRange(arg, 1, arg.length) : arg, BAD_OFFSET);
        if (hash) {
            try {
                offset = Math.multiplyExact(offset, bits);
            } catch (ArithmeticException e) {
                throw new RedisException(BAD_OFFSET);
            }
        }
        if (offset < 0 || (offset >>> 3) >= StringValues.MAX_STRING) {
            throw new RedisException(BAD_OFFSET);
        }
        return offset;
    }

    private static CompletableFuture<Reply> setbit(Invocation inv, Transaction tr) {
        long offset = bitOffset(inv.arg(2), 0);
        long on = inv.longArg(3, "ERR bit is not an integer or out of range");
        if ((on & ~1L) != 0) {
            throw new RedisException("ERR bit is not an integer or out of range");
        }
        int db = inv.db();
        byte[] key = inv.arg(1);
        return keys(inv).getForWrite(tr, db, key, inv.now(), RedisType.STRING).thenCompose(m -> {
            if ((m != null && m.isObject()) || (offset >>> 3) + 1 > StringValues.INLINE_MAX) {
                return setbitLarge(inv, tr, m, offset, (int) on);
            }
            return valueOf(inv, tr, m).thenApply(value -> {
                    byte[] old = value == null ? new byte[0] : value;
                    long needed = (offset >>> 3) + 1;
                    int previous = Bits.get(old, offset);
                    boolean grows = m == null || old.length < needed;
                    if (!grows && previous == on) {
                        return Reply.integer(previous);
                    }
                    StringValues.checkWritable(needed);
                    byte[] updated = Arrays.copyOf(old, (int) Math.max(old.length, needed));
                    Bits.set(updated, offset, (int) on);
                    inv.await(StringValues.write(tr, keys(inv), db, key, m, updated, m == null ? 0 : m.expireAtMillis()));
                    inv.keyspaceEvent(tr, NotifyKeyspaceEvents.STRING, "setbit", key);
                    return Reply.integer(previous);
                });
        });
    }

    /**
     * SETBIT on a large value, or one that becomes large: reads and writes the one byte (its
     * chunk), not the value; bytes up to it that were never written are zeros, not stored.
     */
    private static CompletableFuture<Reply> setbitLarge(Invocation inv, Transaction tr, KeyMeta m, long offset, int on) {
        int db = inv.db();
        byte[] key = inv.arg(1);
        long byteIndex = offset >>> 3;
        return StringValues.asObject(tr, keys(inv), db, key, m).thenCompose(object ->
                StringValues.read(tr, keys(inv), db, object, byteIndex, 1).thenCompose(current -> {
                    byte[] b = current.length == 0 ? new byte[1] : current;
                    int previous = Bits.get(b, offset & 7);
                    if (current.length == 1 && previous == on) {
                        return CompletableFuture.completedFuture(Reply.integer(previous));
                    }
                    Bits.set(b, offset & 7, on);
                    keys(inv).touch(tr, db, key);
                    inv.keyspaceEvent(tr, NotifyKeyspaceEvents.STRING, "setbit", key);
                    return StringValues.writeAt(tr, keys(inv), db, object, byteIndex, b).thenApply(ignored -> Reply.integer(previous));
                }));
    }

    private static CompletableFuture<Reply> getbit(Invocation inv, Transaction tr) {
        long offset = bitOffset(inv.arg(2), 0);
        // Only the byte that holds the bit is read (one chunk of a large value).
        return keys(inv).get(tr, inv.db(), inv.arg(1), inv.now(), RedisType.STRING)
                .thenCompose(m -> m == null ? CompletableFuture.completedFuture(new byte[0])
                        : StringValues.read(tr, keys(inv), inv.db(), m, offset >>> 3, 1))
                .thenApply(v -> Reply.integer(v.length == 0 ? 0 : Bits.get(v, offset & 7)));
    }

    /** BITCOUNT key [start end [BYTE|BIT]]: a missing key answers 0 before any argument is looked at, as in Redis. */
    private static CompletableFuture<Reply> bitcount(Invocation inv, Transaction tr) {
        return keys(inv).get(tr, inv.db(), inv.arg(1), inv.now(), RedisType.STRING).thenCompose(m -> {
            if (m == null) {
                return Invocation.done(Reply.ZERO);
            }
            return StringValues.read(tr, inv.server().keys(), inv.db(), m).thenApply(v -> Reply.integer(bitcount(inv, v)));
        });
    }

    private static long bitcount(Invocation inv, byte[] v) {
        long start;
        long end;
        int firstMask = 0;
        int lastMask = 0;
        if (inv.argc() == 4 || inv.argc() == 5) {
            long total = v.length;
            start = inv.longArg(2);
            end = inv.longArg(3);
            if (start < 0 && end < 0 && start > end) {
                return 0;
            }
            boolean isBit = inv.argc() == 5 && unit(inv, 4);
            if (isBit) {
                total <<= 3;
            }
            start = clampIndex(start, total);
            end = Math.min(clampIndex(end, total), total - 1);
            if (isBit && start <= end) {
                firstMask = ~((1 << (8 - (start & 7))) - 1) & 0xff;
                lastMask = (1 << (7 - (end & 7))) - 1;
                start >>= 3;
                end >>= 3;
            }
        } else if (inv.argc() == 2) {
            start = 0;
            end = v.length - 1;
        } else {
            throw RedisException.syntax();
        }
        if (start > end) {
            return 0;
        }
        long count = Bits.popcount(v, (int) start, (int) end);
        // The edge bytes' bits outside the bit range were counted: take them off.
        if (firstMask != 0) {
            count -= Integer.bitCount(v[(int) start] & firstMask);
        }
        if (lastMask != 0) {
            count -= Integer.bitCount(v[(int) end] & lastMask);
        }
        return count;
    }

    /** A negative index counts from the end; what is still negative becomes 0. */
    private static long clampIndex(long index, long total) {
        if (index < 0) {
            index += total;
        }
        return Math.max(index, 0);
    }

    /** The BYTE|BIT argument at {@code i}: true for BIT. */
    private static boolean unit(Invocation inv, int i) {
        String u = inv.option(i);
        if (u.equals("BIT")) {
            return true;
        }
        if (u.equals("BYTE")) {
            return false;
        }
        throw RedisException.syntax();
    }

    /** BITPOS key bit [start [end [BYTE|BIT]]]. */
    private static CompletableFuture<Reply> bitpos(Invocation inv, Transaction tr) {
        long bit = inv.longArg(2);
        if (bit != 0 && bit != 1) {
            throw new RedisException("ERR The bit argument must be 1 or 0.");
        }
        return keys(inv).get(tr, inv.db(), inv.arg(1), inv.now(), RedisType.STRING).thenCompose(m -> {
            if (m == null) {
                // A missing key is an endless run of zeros.
                return Invocation.done(Reply.integer(bit == 1 ? -1 : 0));
            }
            return StringValues.read(tr, inv.server().keys(), inv.db(), m).thenApply(v -> Reply.integer(bitpos(inv, v, (int) bit)));
        });
    }

    private static long bitpos(Invocation inv, byte[] v, int bit) {
        long start;
        long end;
        boolean endGiven = false;
        int firstMask = 0;
        int lastMask = 0;
        int argc = inv.argc();
        if (argc >= 4 && argc <= 6) {
            long total = v.length;
            start = inv.longArg(3);
            boolean isBit = argc == 6 && unit(inv, 5);
            if (argc >= 5) {
                end = inv.longArg(4);
                endGiven = true;
            } else {
                end = isBit ? (total << 3) + 7 : total - 1;
            }
            if (isBit) {
                total <<= 3;
            }
            start = clampIndex(start, total);
            end = Math.min(clampIndex(end, total), total - 1);
            if (isBit && start <= end) {
                firstMask = ~((1 << (8 - (start & 7))) - 1) & 0xff;
                lastMask = (1 << (7 - (end & 7))) - 1;
                start >>= 3;
                end >>= 3;
            }
        } else if (argc == 3) {
            start = 0;
            end = v.length - 1;
        } else {
            throw RedisException.syntax();
        }
        if (start > end) {
            // An empty range holds neither a 0 nor a 1.
            return -1;
        }
        int from = (int) start;
        byte[] window = Arrays.copyOfRange(v, from, (int) end + 1);
        // The edge bits outside a bit range are made the opposite of what is looked for.
        if (firstMask != 0) {
            window[0] = (byte) (bit == 1 ? window[0] & ~firstMask : window[0] | firstMask);
        }
        if (lastMask != 0) {
            int last = window.length - 1;
            window[last] = (byte) (bit == 1 ? window[last] & ~lastMask : window[last] | lastMask);
        }
        long pos = Bits.position(window, 0, window.length, bit);
        if (pos == -1) {
            return -1;
        }
        if (bit == 0 && pos == (long) window.length * 8) {
            // No 0 inside: without an explicit end the string counts as padded with zeros
            // and the answer is the bit after the range; with one, there is none.
            return endGiven ? -1 : (end + 1) * 8;
        }
        return pos + ((long) from << 3);
    }

    /** BITOP AND|OR|XOR|NOT destkey key [key ...]. */
    private static CompletableFuture<Reply> bitop(Invocation inv, Transaction tr) {
        String op = inv.option(1);
        if (!op.equals("AND") && !op.equals("OR") && !op.equals("XOR") && !op.equals("NOT")) {
            throw RedisException.syntax();
        }
        if (op.equals("NOT") && inv.argc() != 4) {
            throw new RedisException("ERR BITOP NOT must be called with a single source key.");
        }
        int db = inv.db();
        List<CompletableFuture<byte[]>> sources = new ArrayList<>();
        for (int i = 3; i < inv.argc(); i++) {
            sources.add(keys(inv).get(tr, db, inv.arg(i), inv.now(), RedisType.STRING).thenCompose(m -> valueOf(inv, tr, m)));
        }
        byte[] dest = inv.arg(2);
        return CompletableFuture.allOf(sources.toArray(new CompletableFuture[0]))
                .thenCompose(ignored -> keys(inv).getForWrite(tr, db, dest, inv.now()))
                .thenApply(old -> {
                    List<byte[]> values = new ArrayList<>();
                    for (CompletableFuture<byte[]> s : sources) {
                        byte[] v = s.join();
                        values.add(v == null ? new byte[0] : v);
                    }
                    byte[] result = combine(op, values);
                    if (result.length == 0) {
                        if (old != null) {
                            keys(inv).delete(tr, db, dest, old);
                            inv.keyspaceEvent(tr, NotifyKeyspaceEvents.GENERIC, "del", dest);
                        }
                    } else {
                        inv.await(StringValues.write(tr, keys(inv), db, dest, old, result, 0));
                        inv.keyspaceEvent(tr, NotifyKeyspaceEvents.STRING, "set", dest);
                    }
                    return Reply.integer(result.length);
                });
    }

    /** The byte-wise operation over the values, the shorter ones padded with zeros. */
    static byte[] combine(String op, List<byte[]> values) {
        int max = 0;
        for (byte[] v : values) {
            max = Math.max(max, v.length);
        }
        byte[] out = new byte[max];
        for (int j = 0; j < max; j++) {
            int acc = byteAt(values.get(0), j);
            if (op.equals("NOT")) {
                acc = ~acc;
            }
            for (int i = 1; i < values.size(); i++) {
                int b = byteAt(values.get(i), j);
                switch (op) {
                    case "AND": acc &= b; break;
                    case "OR": acc |= b; break;
                    default: acc ^= b; break;
                }
            }
            out[j] = (byte) acc;
        }
        return out;
    }

    private static int byteAt(byte[] v, int j) {
        return j < v.length ? v[j] & 0xff : 0;
    }
}
