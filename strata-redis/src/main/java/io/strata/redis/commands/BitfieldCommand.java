package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.DATA;

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

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * BITFIELD and BITFIELD_RO: integers of 1 to 64 bits (unsigned up to 63) at any bit offset of
 * a string, read, set and incremented in one command, with OVERFLOW WRAP|SAT|FAIL. The whole
 * command is parsed first; then the value is read once, the operations run in order on a
 * copy, and the copy is written once if it differs (or the key is new or grew) — one
 * transaction, no partial effect. On a large string (or one a write makes large) each write
 * operation reads and writes only the bytes of its field instead.
 */
final class BitfieldCommand {
    private static final String BAD_TYPE =
            "ERR Invalid bitfield type. Use something like i16 u8. Note that u64 is not supported but i64 is.";

    private BitfieldCommand() {
    }

    static void register(CommandTable t) {
        t.add("bitfield", -2, "write denyoom", 1, 1, 1, "bitmap", DATA, (inv, tr) -> bitfield(inv, tr, false));
        t.add("bitfield_ro", -2, "readonly fast", 1, 1, 1, "bitmap", DATA, (inv, tr) -> bitfield(inv, tr, true));
    }

    private enum Opcode { GET, SET, INCRBY }

    /** One parsed operation; {@code argument} is SET's value or INCRBY's increment. */
    private record Op(Opcode opcode, boolean signed, int bits, long offset, long argument, BitfieldOverflow overflow) {
    }

    private static CompletableFuture<Reply> bitfield(Invocation inv, Transaction tr, boolean readOnlyCommand) {
        List<Op> ops = parse(inv);
        boolean writes = ops.stream().anyMatch(op -> op.opcode() != Opcode.GET);
        if (writes && readOnlyCommand) {
            throw new RedisException("ERR BITFIELD_RO only supports the GET subcommand");
        }
        int db = inv.db();
        byte[] key = inv.arg(1);
        if (!writes) {
            return inv.server().keys().get(tr, db, key, inv.now(), RedisType.STRING)
                    .thenCompose(m -> BitCommands.valueOf(inv, tr, m))
                    .thenApply(v -> run(ops, v == null ? new byte[0] : v, false, new int[1]));
        }
        long highestBit = 0;
        for (Op op : ops) {
            if (op.opcode() != Opcode.GET) {
                highestBit = Math.max(highestBit, op.offset() + op.bits() - 1);
            }
        }
        long needed = (highestBit >>> 3) + 1;
        return inv.server().keys().getForWrite(tr, db, key, inv.now(), RedisType.STRING).thenCompose(m ->
                (m != null && m.isObject()) || needed > StringValues.INLINE_MAX
                        ? bitfieldLarge(inv, tr, m, ops, needed)
                        : BitCommands.valueOf(inv, tr, m).thenApply(value -> {
                    byte[] old = value == null ? new byte[0] : value;
                    StringValues.checkWritable(Math.max(old.length, needed));
                    // As Redis, the key is created or padded up to the farthest bit written
                    // even if every write then fails its overflow check.
                    byte[] updated = Arrays.copyOf(old, (int) Math.max(old.length, needed));
                    int[] changes = {0};
                    Reply reply = run(ops, updated, m == null || old.length < needed, changes);
                    if (m == null || !Arrays.equals(old, updated)) {
                        inv.await(StringValues.write(tr, inv.server().keys(), db, key, m, updated, m == null ? 0 : m.expireAtMillis()));
                    }
                    if (changes[0] > 0) {
                        // As Redis: one event when a SET or INCRBY was carried out on a string it
                        // created or grew, or changed bits.
                        inv.keyspaceEvent(tr, NotifyKeyspaceEvents.STRING, "setbit", key);
                    }
                    return reply;
                }));
    }

    /**
     * The write form on a large string, or one that becomes large: as SETBIT does, each
     * operation reads and writes only the bytes its field spans (at most 9), in order, so a
     * field at bit 2^32 - 1 costs a chunk, not the 512 MB before it. The string is first padded
     * up to the farthest byte written, as Redis pads it even when an overflow check then fails
     * every write.
     */
    private static CompletableFuture<Reply> bitfieldLarge(Invocation inv, Transaction tr, KeyMeta m, List<Op> ops, long needed) {
        int db = inv.db();
        byte[] key = inv.arg(1);
        KeyStore keys = inv.server().keys();
        return StringValues.asObject(tr, keys, db, key, m).thenCompose(object ->
                StringValues.length(tr, keys, db, object).thenCompose(length -> {
                    boolean grows = m == null || length < needed;
                    CompletableFuture<?> padded = length < needed
                            ? StringValues.writeAt(tr, keys, db, object, needed - 1, new byte[1])
                            : CompletableFuture.completedFuture(null);
                    int[] changes = {0};
                    List<Reply> replies = new ArrayList<>(ops.size());
                    CompletableFuture<?> chain = padded;
                    for (Op op : ops) {
                        chain = chain.thenCompose(ignored -> {
                            long first = op.offset() >>> 3;
                            int span = (int) (((op.offset() + op.bits() - 1) >>> 3) - first + 1);
                            return StringValues.read(tr, keys, db, object, first, span).thenCompose(current -> {
                                byte[] window = Arrays.copyOf(current, span);
                                byte[] before = window.clone();
                                replies.add(runOne(op, window, op.offset() - first * 8, grows, changes));
                                return Arrays.equals(before, window) ? CompletableFuture.completedFuture(null)
                                        : StringValues.writeAt(tr, keys, db, object, first, window);
                            });
                        });
                    }
                    return chain.thenApply(ignored -> {
                        if (grows || changes[0] > 0) {
                            keys.touch(tr, db, key);
                        }
                        if (changes[0] > 0) {
                            inv.keyspaceEvent(tr, NotifyKeyspaceEvents.STRING, "setbit", key);
                        }
                        return Reply.array(replies);
                    });
                }));
    }

    /**
     * Runs the operations on {@code value} in place; one reply per operation. Counts in
     * {@code changes[0]} the writes carried out that changed the field, or all of them when
     * the string was created or grown ({@code dirty}), as Redis counts them.
     */
    private static Reply run(List<Op> ops, byte[] value, boolean dirty, int[] changes) {
        List<Reply> replies = new ArrayList<>(ops.size());
        for (Op op : ops) {
            replies.add(runOne(op, value, op.offset(), dirty, changes));
        }
        return Reply.array(replies);
    }

    /** Runs one operation on its field at bit {@code offset} of {@code value}, in place; its reply. */
    private static Reply runOne(Op op, byte[] value, long offset, boolean dirty, int[] changes) {
        long old = op.signed() ? Bits.getSigned(value, offset, op.bits()) : Bits.getUnsigned(value, offset, op.bits());
        if (op.opcode() == Opcode.GET) {
            return Reply.integer(old);
        }
        boolean incr = op.opcode() == Opcode.INCRBY;
        long base = incr ? old : op.argument();
        long increment = incr ? op.argument() : 0;
        BitfieldOverflow.Outcome outcome = op.signed()
                ? op.overflow().signed(base, increment, op.bits())
                : op.overflow().unsigned(base, increment, op.bits());
        if (outcome.overflowed() && op.overflow() == BitfieldOverflow.FAIL) {
            return Reply.NULL_BULK;
        }
        Bits.setInteger(value, offset, op.bits(), outcome.result());
        long written = op.signed() ? Bits.getSigned(value, offset, op.bits()) : Bits.getUnsigned(value, offset, op.bits());
        if (dirty || written != old) {
            changes[0]++;
        }
        return Reply.integer(incr ? outcome.result() : old);
    }

    private static List<Op> parse(Invocation inv) {
        List<Op> ops = new ArrayList<>();
        BitfieldOverflow overflow = BitfieldOverflow.WRAP;
        for (int j = 2; j < inv.argc(); j++) {
            int remaining = inv.argc() - j - 1;
            String sub = inv.option(j);
            Opcode opcode;
            if (sub.equals("GET") && remaining >= 2) {
                opcode = Opcode.GET;
            } else if (sub.equals("SET") && remaining >= 3) {
                opcode = Opcode.SET;
            } else if (sub.equals("INCRBY") && remaining >= 3) {
                opcode = Opcode.INCRBY;
            } else if (sub.equals("OVERFLOW") && remaining >= 1) {
                overflow = overflowNamed(inv.option(++j));
                continue;
            } else {
                throw RedisException.syntax();
            }
            byte[] type = inv.arg(j + 1);
            boolean signed = type.length > 0 && type[0] == 'i';
            int bits = bitsOf(type);
            long offset = BitCommands.bitOffset(inv.arg(j + 2), bits);
            long argument = opcode == Opcode.GET ? 0 : inv.longArg(j + 3);
            ops.add(new Op(opcode, signed, bits, offset, argument, overflow));
            j += opcode == Opcode.GET ? 2 : 3;
        }
        return ops;
    }

    private static BitfieldOverflow overflowNamed(String name) {
        switch (name) {
            case "WRAP": return BitfieldOverflow.WRAP;
            case "SAT": return BitfieldOverflow.SAT;
            case "FAIL": return BitfieldOverflow.FAIL;
            default: throw new RedisException("ERR Invalid OVERFLOW type specified");
        }
    }

    /** The width of a type such as {@code i16} or {@code u8}: i1..i64, u1..u63. */
    private static int bitsOf(byte[] type) {
        if (type.length < 2 || (type[0] != 'i' && type[0] != 'u')) {
            throw new RedisException(BAD_TYPE);
        }
        byte[] digits = Arrays.copyOfRange(type, 1, type.length);
        if (!Numbers.isLong(digits)) {
            throw new RedisException(BAD_TYPE);
        }
        long bits = Long.parseLong(new String(digits, StandardCharsets.US_ASCII));
        if (bits < 1 || (type[0] == 'i' && bits > 64) || (type[0] == 'u' && bits > 63)) {
            throw new RedisException(BAD_TYPE);
        }
        return (int) bits;
    }
}
