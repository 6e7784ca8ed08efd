package io.strata.redis.commands;

import io.strata.redis.command.Invocation;
import io.strata.redis.command.OptionWords;
import io.strata.redis.protocol.RedisException;

/**
 * The options of SET ({@code NX XX GET KEEPTTL EX PX EXAT PXAT}) and GETEX
 * ({@code PERSIST EX PX EXAT PXAT}), read as Redis 7.0's
 * {@code parseExtendedStringArgumentsOrReply} in {@code t_string.c} reads them.
 *
 * <p>Redis's rules, which this class keeps:
 * <ul>
 *   <li>The pass is syntax only: an expiry option takes the next argument without reading it,
 *       and a repeated option replaces the earlier one — {@code EX abc EX 6} is EX 6, and the
 *       {@code abc} is never parsed. Only a different expiry option (or KEEPTTL/PERSIST against
 *       one), NX against XX, an option of the other command, or an expiry option with nothing
 *       after it is {@code ERR syntax error}.</li>
 *   <li>The value is parsed afterwards, by the command, in its own place: SET before anything
 *       else, GETEX only once the key is found and is a string (see {@link #expireAt}).</li>
 *   <li>Option words are matched as Redis's C code matches them ({@link OptionWords}):
 *       ASCII case-insensitively, and only up to the argument's first NUL byte.</li>
 * </ul>
 *
 * @param flags the options seen, a set of the bits below
 * @param expireIndex the index of the last expiry option's value, or -1 for none
 */
record ExtendedStringOptions(int flags, int expireIndex) {
    static final int NX = 1;
    static final int XX = 1 << 1;
    static final int EX = 1 << 2;
    static final int PX = 1 << 3;
    static final int KEEPTTL = 1 << 4;
    static final int GET = 1 << 5;
    static final int EXAT = 1 << 6;
    static final int PXAT = 1 << 7;
    static final int PERSIST = 1 << 8;

    private static final int ANY_EXPIRY = EX | PX | EXAT | PXAT;

    /** SET's options, from argument 3 on. */
    static ExtendedStringOptions forSet(Invocation inv) {
        return parse(inv, 3, true);
    }

    /** GETEX's options, from argument 2 on. */
    static ExtendedStringOptions forGetex(Invocation inv) {
        return parse(inv, 2, false);
    }

    private static ExtendedStringOptions parse(Invocation inv, int from, boolean set) {
        int flags = 0;
        int expireIndex = -1;
        for (int j = from; j < inv.argc(); j++) {
            byte[] opt = inv.arg(j);
            boolean hasNext = j + 1 < inv.argc();
            if (set && is(opt, "NX") && (flags & XX) == 0) {
                flags |= NX;
            } else if (set && is(opt, "XX") && (flags & NX) == 0) {
                flags |= XX;
            } else if (set && is(opt, "GET")) {
                flags |= GET;
            } else if (set && is(opt, "KEEPTTL") && (flags & (PERSIST | ANY_EXPIRY)) == 0) {
                flags |= KEEPTTL;
            } else if (!set && is(opt, "PERSIST") && (flags & (KEEPTTL | ANY_EXPIRY)) == 0) {
                flags |= PERSIST;
            } else if (hasNext && expiry(opt) != 0 && (flags & (KEEPTTL | PERSIST | (ANY_EXPIRY & ~expiry(opt)))) == 0) {
                flags |= expiry(opt);
                expireIndex = ++j;
            } else {
                throw RedisException.syntax();
            }
        }
        return new ExtendedStringOptions(flags, expireIndex);
    }

    /** The expiry bit an option word names, or 0. */
    private static int expiry(byte[] opt) {
        if (is(opt, "EX")) {
            return EX;
        } else if (is(opt, "PX")) {
            return PX;
        } else if (is(opt, "EXAT")) {
            return EXAT;
        } else if (is(opt, "PXAT")) {
            return PXAT;
        }
        return 0;
    }

    boolean has(int flag) {
        return (flags & flag) != 0;
    }

    boolean hasExpiry() {
        return expireIndex >= 0;
    }

    /** Whether the expiry is an absolute time (EXAT, PXAT), which may already have passed. */
    boolean absolute() {
        return has(EXAT | PXAT);
    }

    /**
     * The expiry as Unix milliseconds, parsed now: {@code ERR value is not an integer or out of
     * range}, then Redis's {@code invalid expire time in '<command>' command}.
     */
    long expireAt(Invocation inv, String command) {
        long amount = inv.longArg(expireIndex);
        String unit = has(EX) ? "EX" : has(PX) ? "PX" : has(EXAT) ? "EXAT" : "PXAT";
        return Expiry.at(unit, amount, inv.now(), command);
    }

    private static boolean is(byte[] arg, String word) {
        return OptionWords.is(arg, word);
    }
}
