package io.strata.redis.acl;

import io.strata.redis.command.KeySpecs;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;

/**
 * Applies ACL rules to a user, with the meaning and the errors of Redis 7.0's
 * {@code ACLSetUser} and {@code ACLSetSelector}: {@code on}/{@code off}, passwords
 * ({@code >pass}, {@code <pass}, {@code #hash}, {@code !hash}, {@code nopass},
 * {@code resetpass}), key patterns ({@code ~p}, {@code %R~p}, {@code %W~p}, {@code %RW~p},
 * {@code allkeys}, {@code resetkeys}), channel patterns ({@code &p}, {@code allchannels},
 * {@code resetchannels}), commands ({@code +cmd}, {@code -cmd}, {@code +cmd|sub},
 * {@code +cmd|firstarg}, {@code +@category}, {@code -@category}, {@code allcommands},
 * {@code nocommands}), selectors ({@code (...)}, {@code clearselectors}) and {@code reset}.
 *
 * <p>Rules are strings whose characters are the argument's bytes (ISO-8859-1), so passwords
 * and patterns stay binary-exact. {@link #apply} works on a copy and returns it only when
 * every rule applied: a failing SETUSER changes nothing.
 *
 * <p>Concurrency: stateless apart from its settings; any thread.
 */
final class AclRules {
    private final CommandCatalog catalog;
    /** Redis's {@code acl-pubsub-default}: whether new selectors start with every channel. */
    private final boolean allChannelsByDefault;

    AclRules(CommandCatalog catalog, boolean allChannelsByDefault) {
        this.catalog = catalog;
        this.allChannelsByDefault = allChannelsByDefault;
    }

    /** A user as ACL SETUSER creates it: off, no password, no keys, no commands. */
    AclUser newUser(String name) {
        return new AclUser(name, allChannelsByDefault);
    }

    /** Redis's default user: on, nopass, every key, channel and command. */
    AclUser defaultUser() {
        AclUser u = newUser("default");
        try {
            for (String op : List.of("+@all", "~*", "&*", "on", "nopass")) {
                applyOne(u, op);
            }
        } catch (AclRuleException e) {
            throw new IllegalStateException(e);
        }
        return u;
    }

    /**
     * The user {@code base} (or a new one named {@code name} when null) with {@code ops} applied,
     * as ACL SETUSER does; throws with Redis's full error message when a rule is invalid.
     */
    AclUser apply(AclUser base, String name, List<String> ops) throws AclSetUserException {
        List<String> merged = mergeSelectors(ops);
        AclUser u = base == null ? newUser(name) : base.copy();
        for (String op : merged) {
            try {
                applyOne(u, op);
            } catch (AclRuleException e) {
                throw new AclSetUserException("Error in ACL SETUSER modifier '" + op + "': " + e.getMessage());
            }
        }
        return u;
    }

    /**
     * Joins a selector written over several arguments ({@code "(~key" "+get)"}) into one, as
     * Redis's {@code ACLMergeSelectorArguments}.
     */
    static List<String> mergeSelectors(List<String> ops) throws AclSetUserException {
        List<String> merged = new ArrayList<>();
        StringBuilder selector = null;
        String openedAt = null;
        for (String op : ops) {
            if (selector == null && op.startsWith("(") && !op.endsWith(")")) {
                selector = new StringBuilder(op);
                openedAt = op;
                continue;
            }
            if (selector != null) {
                selector.append(' ').append(op);
                if (op.endsWith(")")) {
                    merged.add(selector.toString());
                    selector = null;
                }
                continue;
            }
            merged.add(op);
        }
        if (selector != null) {
            throw new AclSetUserException("Unmatched parenthesis in acl selector starting at '" + openedAt + "'.");
        }
        return merged;
    }

    /** One user rule, as Redis's {@code ACLSetUser}. */
    void applyOne(AclUser u, String op) throws AclRuleException {
        if (op.isEmpty()) {
            return;
        }
        String word = op.toLowerCase(Locale.ROOT);
        switch (word) {
            case "on" -> u.enabled = true;
            case "off" -> u.enabled = false;
            case "skip-sanitize-payload" -> u.sanitize = AclUser.SANITIZE_SKIP;
            case "sanitize-payload" -> u.sanitize = AclUser.SANITIZE;
            case "nopass" -> {
                u.nopass = true;
                u.passwords.clear();
            }
            case "resetpass" -> {
                u.nopass = false;
                u.passwords.clear();
            }
            case "clearselectors" -> {
                AclSelector root = u.root();
                u.selectors.clear();
                u.selectors.add(root);
            }
            case "reset" -> {
                for (String r : List.of("resetpass", "resetkeys", "resetchannels")) {
                    applyOne(u, r);
                }
                if (allChannelsByDefault) {
                    applyOne(u, "allchannels");
                }
                for (String r : List.of("off", "sanitize-payload", "clearselectors", "-@all")) {
                    applyOne(u, r);
                }
            }
            default -> applyOther(u, op);
        }
    }

    private void applyOther(AclUser u, String op) throws AclRuleException {
        char c = op.charAt(0);
        if (c == '>' || c == '#') {
            String hash = c == '>' ? Passwords.hash(bytes(op.substring(1))) : checkedHash(op.substring(1));
            if (!u.passwords.contains(hash)) {
                u.passwords.add(hash);
            }
            u.nopass = false;
        } else if (c == '<' || c == '!') {
            String hash = c == '<' ? Passwords.hash(bytes(op.substring(1))) : checkedHash(op.substring(1));
            if (!u.passwords.remove(hash)) {
                throw new AclRuleException(AclRuleException.NO_SUCH_PASSWORD);
            }
        } else if (c == '(' && op.endsWith(")") && op.length() >= 2) {
            AclSelector s = new AclSelector(false, allChannelsByDefault);
            for (String inner : op.substring(1, op.length() - 1).trim().split("\\s+")) {
                if (!inner.isEmpty()) {
                    applySelector(s, inner);
                }
            }
            u.selectors.add(s);
        } else {
            applySelector(u.root(), op);
        }
    }

    private static String checkedHash(String hash) throws AclRuleException {
        if (!Passwords.isValidHash(hash)) {
            throw new AclRuleException(AclRuleException.BAD_HASH);
        }
        return hash;
    }

    /** One selector rule, as Redis's {@code ACLSetSelector}. */
    void applySelector(AclSelector s, String op) throws AclRuleException {
        String word = op.toLowerCase(Locale.ROOT);
        if (word.equals("allkeys") || word.equals("~*")) {
            s.allKeys = true;
            s.keys.clear();
        } else if (word.equals("resetkeys")) {
            s.allKeys = false;
            s.keys.clear();
        } else if (word.equals("allchannels") || word.equals("&*")) {
            s.allChannels = true;
            s.channels.clear();
        } else if (word.equals("resetchannels")) {
            s.allChannels = false;
            s.channels.clear();
        } else if (word.equals("allcommands") || word.equals("+@all")) {
            s.allowed.set(0, catalog.size());
            s.future = true;
            s.allCommands = true;
            s.firstArgs = null;
        } else if (word.equals("nocommands") || word.equals("-@all")) {
            s.allowed.clear();
            s.future = false;
            s.allCommands = false;
            s.firstArgs = null;
        } else if (op.charAt(0) == '~' || op.charAt(0) == '%') {
            addKeyPattern(s, op);
        } else if (op.charAt(0) == '&') {
            addChannel(s, op);
        } else if (op.charAt(0) == '+' && charAt(op, 1) != '@') {
            allowCommand(s, op.substring(1));
        } else if (op.charAt(0) == '-' && charAt(op, 1) != '@') {
            CommandCatalog.Entry e = catalog.byName(op.substring(1));
            if (e == null) {
                throw new AclRuleException(AclRuleException.UNKNOWN);
            }
            changePermission(s, e, false);
        } else if ((op.charAt(0) == '+' || op.charAt(0) == '-') && charAt(op, 1) == '@') {
            int category = AclCategories.indexOf(op.substring(2));
            if (category < 0) {
                throw new AclRuleException(AclRuleException.UNKNOWN);
            }
            setCategory(catalog, s, category, op.charAt(0) == '+');
        } else {
            throw new AclRuleException(AclRuleException.SYNTAX);
        }
    }

    private static char charAt(String s, int i) {
        return i < s.length() ? s.charAt(i) : 0;
    }

    private static void addKeyPattern(AclSelector s, String op) throws AclRuleException {
        if (s.allKeys) {
            throw new AclRuleException(AclRuleException.KEYS_AFTER_ALL);
        }
        int access = 0;
        int offset = 1;
        if (op.charAt(0) == '%') {
            for (; offset < op.length(); offset++) {
                char c = Character.toUpperCase(op.charAt(offset));
                if (c == 'R' && (access & KeySpecs.READ) == 0) {
                    access |= KeySpecs.READ;
                } else if (c == 'W' && (access & KeySpecs.WRITE) == 0) {
                    access |= KeySpecs.WRITE;
                } else if (op.charAt(offset) == '~') {
                    offset++;
                    break;
                } else {
                    throw new AclRuleException(AclRuleException.SYNTAX);
                }
            }
            if (access == 0) {
                throw new AclRuleException(AclRuleException.SYNTAX);
            }
        } else {
            access = KeyPattern.ALL;
        }
        String pattern = op.substring(offset);
        if (hasSpaces(pattern)) {
            throw new AclRuleException(AclRuleException.SYNTAX);
        }
        for (KeyPattern k : s.keys) {
            if (k.pattern.equals(pattern)) {
                k.access |= access;
                return;
            }
        }
        s.keys.add(new KeyPattern(pattern, access));
    }

    private static void addChannel(AclSelector s, String op) throws AclRuleException {
        if (s.allChannels) {
            throw new AclRuleException(AclRuleException.CHANNELS_AFTER_ALL);
        }
        String pattern = op.substring(1);
        if (hasSpaces(pattern)) {
            throw new AclRuleException(AclRuleException.SYNTAX);
        }
        if (!s.channels.contains(pattern)) {
            s.channels.add(pattern);
        }
    }

    /** {@code +name}: a command, a subcommand ({@code config|get}) or a first argument ({@code select|0}). */
    private void allowCommand(AclSelector s, String name) throws AclRuleException {
        int bar = name.lastIndexOf('|');
        if (bar < 0) {
            CommandCatalog.Entry e = catalog.byName(name);
            if (e == null) {
                throw new AclRuleException(AclRuleException.UNKNOWN);
            }
            changePermission(s, e, true);
            return;
        }
        CommandCatalog.Entry e = catalog.byName(name.substring(0, bar));
        String sub = name.substring(bar + 1);
        if (e == null) {
            throw new AclRuleException(AclRuleException.UNKNOWN);
        }
        if (e.parent != null) {
            throw new AclRuleException(AclRuleException.SUBCOMMAND_FIRST_ARG);
        }
        if (sub.isEmpty()) {
            throw new AclRuleException(AclRuleException.SYNTAX);
        }
        if (!e.children.isEmpty()) {
            CommandCatalog.Entry subcommand = catalog.byName(name);
            if (subcommand == null) {
                throw new AclRuleException(AclRuleException.UNKNOWN);
            }
            changePermission(s, subcommand, true);
            return;
        }
        if (s.firstArgs == null) {
            s.firstArgs = new LinkedHashMap<>();
        }
        List<String> args = s.firstArgs.computeIfAbsent(e.id, k -> new ArrayList<>());
        for (String a : args) {
            if (a.equalsIgnoreCase(sub)) {
                return;
            }
        }
        args.add(sub);
    }

    /** Allows or blocks a command and, for a container, every subcommand ({@code ACLChangeSelectorPerm}). */
    static void changePermission(AclSelector s, CommandCatalog.Entry e, boolean allow) {
        s.setBit(e.id, allow);
        s.resetFirstArgs(e.id);
        for (CommandCatalog.Entry child : e.children) {
            s.setBit(child.id, allow);
        }
    }

    /** {@code +@category} / {@code -@category} on a selector. */
    static void setCategory(CommandCatalog catalog, AclSelector s, int category, boolean allow) {
        for (CommandCatalog.Entry e : catalog.topLevel()) {
            if (e.inCategory(category)) {
                changePermission(s, e, allow);
            }
            for (CommandCatalog.Entry child : e.children) {
                if (child.inCategory(category)) {
                    changePermission(s, child, allow);
                }
            }
        }
    }

    /** The same category walk on a bare bit set (descriptions simulate rules on one). */
    static void setCategory(CommandCatalog catalog, BitSet bits, int category, boolean allow) {
        for (CommandCatalog.Entry e : catalog.topLevel()) {
            if (e.inCategory(category)) {
                changePermission(bits, e, allow);
            }
            for (CommandCatalog.Entry child : e.children) {
                if (child.inCategory(category)) {
                    changePermission(bits, child, allow);
                }
            }
        }
    }

    static void changePermission(BitSet bits, CommandCatalog.Entry e, boolean allow) {
        bits.set(e.id, allow);
        for (CommandCatalog.Entry child : e.children) {
            bits.set(child.id, allow);
        }
    }

    /** Redis's {@code ACLStringHasSpaces}: white space or NUL. */
    static boolean hasSpaces(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == ' ' || c == '\t' || c == '\n' || c == 0x0b || c == '\f' || c == '\r' || c == 0) {
                return true;
            }
        }
        return false;
    }

    static byte[] bytes(String latin1) {
        return latin1.getBytes(StandardCharsets.ISO_8859_1);
    }
}
