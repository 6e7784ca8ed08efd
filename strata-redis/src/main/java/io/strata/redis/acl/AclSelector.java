package io.strata.redis.acl;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One selector of a user: which commands (a bit per command and subcommand id of the
 * {@link CommandCatalog}), which keys and which channels it allows. A user's first selector is
 * its root, the permissions written outside parentheses; the others are the {@code (...)}
 * selectors of Redis 7.0. A request is allowed when one selector allows all of it.
 *
 * <p>As in Redis, {@code +@all} also sets a "future commands" bit ({@link #future}) that only
 * {@code -@all} clears: it tells a description to start from {@code +@all}; {@link #allCommands}
 * is Redis's ALLCOMMANDS flag, cleared by any removal. First arguments ({@code +select|0})
 * allow a command that is otherwise off when its first argument matches.
 *
 * <p>Concurrency: mutable, used by one thread while rules are applied to a private copy;
 * published users are never changed again (see {@link AclUser}).
 */
final class AclSelector {
    final boolean root;
    BitSet allowed = new BitSet();
    boolean future;
    boolean allCommands;
    /** Allowed first arguments per command id, in the order added (null: none). */
    Map<Integer, List<String>> firstArgs;
    boolean allKeys;
    final List<KeyPattern> keys = new ArrayList<>();
    boolean allChannels;
    final List<String> channels = new ArrayList<>();

    AclSelector(boolean root, boolean allChannelsByDefault) {
        this.root = root;
        this.allChannels = allChannelsByDefault;
    }

    AclSelector copy() {
        AclSelector c = new AclSelector(root, allChannels);
        c.allowed = (BitSet) allowed.clone();
        c.future = future;
        c.allCommands = allCommands;
        if (firstArgs != null) {
            c.firstArgs = new LinkedHashMap<>();
            firstArgs.forEach((id, args) -> c.firstArgs.put(id, new ArrayList<>(args)));
        }
        c.allKeys = allKeys;
        for (KeyPattern k : keys) {
            c.keys.add(new KeyPattern(k.pattern, k.access));
        }
        c.channels.addAll(channels);
        return c;
    }

    boolean bit(int id) {
        return allowed.get(id);
    }

    /** Sets or clears one command's bit; clearing one ends ALLCOMMANDS, as in Redis. */
    void setBit(int id, boolean value) {
        if (value) {
            allowed.set(id);
        } else {
            allowed.clear(id);
            allCommands = false;
        }
    }

    void resetFirstArgs(int id) {
        if (firstArgs != null) {
            firstArgs.remove(id);
            if (firstArgs.isEmpty()) {
                firstArgs = null;
            }
        }
    }

    List<String> firstArgs(int id) {
        return firstArgs == null ? null : firstArgs.get(id);
    }
}
