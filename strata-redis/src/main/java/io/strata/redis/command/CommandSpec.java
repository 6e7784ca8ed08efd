package io.strata.redis.command;

import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One command of the command table: its name, arity, flags, key positions and ACL categories
 * as Redis 7.0's {@code COMMAND INFO} describes them, and its handler.
 *
 * @param name lower case, as {@code COMMAND} lists it
 * @param arity Redis's arity (negative: at least)
 * @param flags Redis's flags
 * @param firstKey position of the first key argument (0: none)
 * @param lastKey position of the last key (-1: the last argument, -2: the one before it)
 * @param step distance between keys
 * @param categories ACL categories without {@code @}, e.g. {@code string}, {@code read}
 * @param kind whether the handler needs a transaction
 * @param handler what it does
 * @param keyFinder how its keys are found in a request ({@link KeySpecs#keys}), derived from
 *                  the above once: each request is routed, tracked and accounted by its keys
 * @param touchesKeys whether running it accesses its keys ({@link AccessClock#touches}), derived likewise
 */
public record CommandSpec(String name, int arity, Set<CommandFlag> flags, int firstKey, int lastKey, int step,
                          List<String> categories, Kind kind, CommandHandler handler,
                          KeySpecs.Finder keyFinder, boolean touchesKeys) {

    /** A command with the key finder and access rule its name, arity, flags and key positions give. */
    public CommandSpec(String name, int arity, Set<CommandFlag> flags, int firstKey, int lastKey, int step,
                       List<String> categories, Kind kind, CommandHandler handler) {
        this(name, arity, flags, firstKey, lastKey, step, categories, kind, handler, null, false);
    }

    /** Whether a command works on the database (in a transaction) or only on the connection or server. */
    public enum Kind {
        /** Runs in a transaction; may be queued in MULTI and batched. */
        DATA,
        /** Runs on the connection's event loop without a transaction. */
        LOCAL,
        /**
         * May wait for keys to change (BLPOP and the like). Run on its own it gets no
         * transaction ({@code tr} is null) and runs its own, as many as it needs while it
         * waits; queued in MULTI it gets EXEC's transaction, like a DATA command, and must
         * not wait (Redis: a blocking command in a transaction acts as if its timeout expired).
         */
        BLOCKING
    }

    public CommandSpec {
        name = name.toLowerCase(Locale.ROOT);
        flags = flags.isEmpty() ? EnumSet.noneOf(CommandFlag.class) : EnumSet.copyOf(flags);
        categories = List.copyOf(categories);
        if (keyFinder == null) {
            keyFinder = KeySpecs.finderFor(name, arity, flags, firstKey, lastKey, step);
            touchesKeys = AccessClock.touches(name);
        }
    }

    public boolean has(CommandFlag flag) {
        return flags.contains(flag);
    }

    public boolean acceptsArgumentCount(int argc) {
        return Arity.accepts(arity, argc);
    }

    /** Whether a command writes (ACL {@code @write}, refused when the server is read-only). */
    public boolean isWrite() {
        return flags.contains(CommandFlag.WRITE);
    }
}
