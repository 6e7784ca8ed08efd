package io.strata.redis.acl;

import io.strata.redis.command.CommandFlag;
import io.strata.redis.command.CommandSpec;
import io.strata.redis.command.GlobPattern;
import io.strata.redis.command.KeySpecs;
import io.strata.redis.command.KeySpecs.KeyRef;

import java.util.BitSet;
import java.util.List;
import java.util.Map;

/**
 * A user's selectors compiled for the check every request passes (Redis's
 * {@code ACLCheckAllUserCommandPerm}): a request is allowed when one selector allows its
 * command (bit, or an allowed first argument), every key it names (pattern and read/write
 * access from {@link KeySpecs}) and every channel it publishes or subscribes to. When all
 * selectors deny, the denial reported is the most relevant one: a channel over a key over the
 * command, and among equals the latest argument.
 *
 * <p>A user with a selector that allows every command, key and channel (the default user)
 * passes without looking at the request at all.
 *
 * <p>Concurrency: immutable; shared by every connection of the user.
 */
public final class Permissions {
    private final CommandCatalog catalog;
    private final Compiled[] selectors;
    private final boolean unrestricted;

    /** One selector, with patterns as bytes ready for matching. */
    private static final class Compiled {
        final BitSet allowed;
        final boolean allCommands;
        final Map<Integer, List<String>> firstArgs;
        final boolean allKeys;
        final byte[][] keyPatterns;
        final int[] keyAccess;
        final boolean allChannels;
        final byte[][] channels;
        final String[] channelStrings;

        Compiled(AclSelector s) {
            allowed = (BitSet) s.allowed.clone();
            allCommands = s.allCommands;
            firstArgs = s.firstArgs == null ? Map.of() : Map.copyOf(s.firstArgs);
            allKeys = s.allKeys;
            keyPatterns = new byte[s.keys.size()][];
            keyAccess = new int[s.keys.size()];
            for (int i = 0; i < keyPatterns.length; i++) {
                keyPatterns[i] = AclText.bytes(s.keys.get(i).pattern);
                keyAccess[i] = s.keys.get(i).access;
            }
            allChannels = s.allChannels;
            channels = new byte[s.channels.size()][];
            channelStrings = s.channels.toArray(new String[0]);
            for (int i = 0; i < channels.length; i++) {
                channels[i] = AclText.bytes(s.channels.get(i));
            }
        }
    }

    Permissions(CommandCatalog catalog, AclUser user) {
        this.catalog = catalog;
        this.selectors = new Compiled[user.selectors.size()];
        boolean open = false;
        for (int i = 0; i < selectors.length; i++) {
            Compiled c = new Compiled(user.selectors.get(i));
            selectors[i] = c;
            open |= c.allCommands && c.allKeys && c.allChannels;
        }
        this.unrestricted = open;
    }

    /** Null when the request may run, else why not. {@code spec} is what it runs (the subcommand for a container). */
    public Denial check(CommandSpec spec, byte[][] args) {
        if (unrestricted) {
            return null;
        }
        Request request = new Request(spec, args);
        Denial.Reason relevant = Denial.Reason.COMMAND;
        int position = 0;
        for (Compiled s : selectors) {
            long verdict = check(s, request);
            if (verdict == ALLOWED) {
                return null;
            }
            Denial.Reason reason = Denial.Reason.values()[(int) (verdict >>> 32)];
            int at = (int) verdict;
            if (reason.ordinal() > relevant.ordinal() || (reason == relevant && at > position)) {
                relevant = reason;
                position = at;
            }
        }
        return new Denial(relevant, position, spec.name());
    }

    /**
     * Whether one selector allows the request and also reads every key (Redis's
     * {@code ACLUserCheckCmdWithUnrestrictedKeyAccess} with read access): SORT's BY and GET
     * patterns may read any key, so they need it.
     */
    public boolean allowsReadingAnyKey(CommandSpec spec, byte[][] args) {
        Request request = new Request(spec, args);
        for (Compiled s : selectors) {
            if (check(s, request) == ALLOWED && readsAnyKey(s)) {
                return true;
            }
        }
        return false;
    }

    private static boolean readsAnyKey(Compiled s) {
        if (s.allKeys) {
            return true;
        }
        for (int i = 0; i < s.keyPatterns.length; i++) {
            if ((s.keyAccess[i] & KeySpecs.READ) != 0 && GlobPattern.matchesAll(s.keyPatterns[i])) {
                return true;
            }
        }
        return false;
    }

    private static final long ALLOWED = -1;

    /** A request being checked; its keys are found once, for whichever selector needs them first. */
    private final class Request {
        final CommandSpec spec;
        final byte[][] args;
        final CommandCatalog.Entry entry;
        List<KeyRef> keys;

        Request(CommandSpec spec, byte[][] args) {
            this.spec = spec;
            this.args = args;
            this.entry = catalog.of(spec);
        }

        List<KeyRef> keys() {
            if (keys == null) {
                keys = KeySpecs.keys(spec, args);
            }
            return keys;
        }
    }

    /** {@link #ALLOWED}, or the denial's reason (high 32 bits, its ordinal) and argument position (low 32 bits). */
    private static long check(Compiled s, Request r) {
        if (!commandAllowed(s, r.spec, r.entry, r.entry == null ? -1 : r.entry.id, r.args)) {
            return denial(Denial.Reason.COMMAND, 0);
        }
        if (!s.allKeys && KeySpecs.hasKeys(r.spec)) {
            int deniedKey = deniedKey(s, r.keys(), r.args);
            if (deniedKey >= 0) {
                return denial(Denial.Reason.KEY, deniedKey);
            }
        }
        int deniedChannel = s.allChannels ? -1 : deniedChannel(s, r.spec, r.args);
        return deniedChannel < 0 ? ALLOWED : denial(Denial.Reason.CHANNEL, deniedChannel);
    }

    private static long denial(Denial.Reason reason, int position) {
        return ((long) reason.ordinal() << 32) | position;
    }

    private static boolean commandAllowed(Compiled s, CommandSpec spec, CommandCatalog.Entry entry, int id, byte[][] args) {
        if (s.allCommands || spec.has(CommandFlag.NO_AUTH)) {
            return true;
        }
        if (id >= 0 && s.allowed.get(id)) {
            return true;
        }
        List<String> firstArgs = id < 0 ? null : s.firstArgs.get(id);
        if (firstArgs == null || args.length < 2) {
            return false;
        }
        String first = AclText.of(args[entry.parent != null ? 2 : 1]);
        for (String allowedArg : firstArgs) {
            if (allowedArg.equalsIgnoreCase(first)) {
                return true;
            }
        }
        return false;
    }

    /** The position of the first key no pattern of {@code s} allows, or -1. */
    private static int deniedKey(Compiled s, List<KeyRef> keys, byte[][] args) {
        for (KeyRef k : keys) {
            if (!keyAllowed(s, args[k.position()], k.access())) {
                return k.position();
            }
        }
        return -1;
    }

    private static boolean keyAllowed(Compiled s, byte[] key, int access) {
        for (int i = 0; i < s.keyPatterns.length; i++) {
            if ((s.keyAccess[i] & access) == access && GlobPattern.matches(s.keyPatterns[i], key)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The position of the first channel {@code s} does not allow, or -1. Channels are checked
     * for the commands that publish or subscribe (Redis's channel table): a channel name is
     * matched against the patterns, a PSUBSCRIBE pattern must equal one of them literally.
     */
    private static int deniedChannel(Compiled s, CommandSpec spec, byte[][] args) {
        int last;
        boolean pattern = false;
        switch (spec.name()) {
            case "publish", "spublish" -> last = Math.min(2, args.length);
            case "subscribe", "ssubscribe" -> last = args.length;
            case "psubscribe" -> {
                last = args.length;
                pattern = true;
            }
            default -> {
                return -1;
            }
        }
        for (int i = 1; i < last; i++) {
            if (!channelAllowed(s, args[i], pattern)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean channelAllowed(Compiled s, byte[] channel, boolean isPattern) {
        for (int i = 0; i < s.channels.length; i++) {
            if (isPattern ? s.channelStrings[i].equals(AclText.of(channel)) : GlobPattern.matches(s.channels[i], channel)) {
                return true;
            }
        }
        return false;
    }

    /** Whether any selector allows every channel (pub/sub clients then keep all subscriptions). */
    boolean allowsAllChannels() {
        for (Compiled s : selectors) {
            if (s.allChannels) {
                return true;
            }
        }
        return false;
    }

    /** Whether a subscription to {@code channel} (a pattern when {@code isPattern}) is still allowed. */
    public boolean allowsSubscription(byte[] channel, boolean isPattern) {
        for (Compiled s : selectors) {
            if (s.allChannels || channelAllowed(s, channel, isPattern)) {
                return true;
            }
        }
        return false;
    }
}
