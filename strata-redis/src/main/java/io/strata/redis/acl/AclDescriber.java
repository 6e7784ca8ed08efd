package io.strata.redis.acl;

import java.util.BitSet;
import java.util.List;

/**
 * Writes users back as rules, the way Redis 7.0 prints them in ACL LIST and ACL GETUSER:
 * {@code on #<hash> ~* resetchannels &news +@all -@dangerous (~other* +get)}.
 *
 * <p>Command rules are rebuilt from the selector's bits as Redis's
 * {@code ACLDescribeSelectorCommandRules} does: start from {@code +@all} when the selector can
 * run future commands, else from {@code -@all}; then repeatedly add the category (in
 * {@link AclCategories} order) that best fits the remaining differences, while it fits more
 * commands than it misfits; then fix single commands and subcommands, and append allowed
 * first arguments. Applying the result to a new selector gives exactly the same bits.
 *
 * <p>Concurrency: reads published users only; any thread.
 */
final class AclDescriber {
    private final CommandCatalog catalog;

    AclDescriber(CommandCatalog catalog) {
        this.catalog = catalog;
    }

    /** The rules of a user after {@code user <name> } in ACL LIST (and as stored). */
    String describe(AclUser u) {
        StringBuilder sb = new StringBuilder();
        sb.append(u.enabled ? "on " : "off ");
        if (u.nopass) {
            sb.append("nopass ");
        }
        if (u.sanitize == AclUser.SANITIZE_SKIP) {
            sb.append("skip-sanitize-payload ");
        } else if (u.sanitize == AclUser.SANITIZE) {
            sb.append("sanitize-payload ");
        }
        for (String p : u.passwords) {
            sb.append('#').append(p).append(' ');
        }
        for (AclSelector s : u.selectors) {
            if (s.root) {
                sb.append(describe(s));
            } else {
                sb.append(" (").append(describe(s)).append(')');
            }
        }
        return sb.toString();
    }

    /** A selector's keys, channels and commands, as one rule string. */
    String describe(AclSelector s) {
        StringBuilder sb = new StringBuilder();
        if (s.allKeys) {
            sb.append("~* ");
        } else {
            for (KeyPattern k : s.keys) {
                sb.append(k.describe()).append(' ');
            }
        }
        if (s.allChannels) {
            sb.append("&* ");
        } else {
            sb.append("resetchannels ");
            for (String c : s.channels) {
                sb.append('&').append(c).append(' ');
            }
        }
        return sb.append(commandRules(s)).toString();
    }

    /** GETUSER's {@code keys}: {@code ~*} or the patterns separated by spaces. */
    static String keys(AclSelector s) {
        if (s.allKeys) {
            return "~*";
        }
        StringBuilder sb = new StringBuilder();
        for (KeyPattern k : s.keys) {
            if (sb.length() > 0) {
                sb.append(' ');
            }
            sb.append(k.describe());
        }
        return sb.toString();
    }

    /** GETUSER's {@code channels}: {@code &*} or the patterns separated by spaces. */
    static String channels(AclSelector s) {
        if (s.allChannels) {
            return "&*";
        }
        StringBuilder sb = new StringBuilder();
        for (String c : s.channels) {
            if (sb.length() > 0) {
                sb.append(' ');
            }
            sb.append('&').append(c);
        }
        return sb.toString();
    }

    /** The command rules that rebuild the selector's bits, e.g. {@code +@all -@dangerous +info}. */
    String commandRules(AclSelector s) {
        StringBuilder rules = new StringBuilder();
        boolean additive = !s.future;
        BitSet fake = new BitSet();
        if (additive) {
            rules.append("-@all ");
        } else {
            rules.append("+@all ");
            fake.set(0, catalog.size());
        }
        BitSet temp = (BitSet) s.allowed.clone();
        boolean[] applied = new boolean[AclCategories.ALL.size()];
        while (true) {
            int best = -1;
            long minDiff = Integer.MAX_VALUE;
            long maxSame = 0;
            for (int j = 0; j < applied.length; j++) {
                if (applied[j]) {
                    continue;
                }
                long[] onOff = count(temp, j);
                long diff = additive ? onOff[1] : onOff[0];
                long same = additive ? onOff[0] : onOff[1];
                if (same > diff && (diff < minDiff || (diff == minDiff && same > maxSame))) {
                    best = j;
                    minDiff = diff;
                    maxSame = same;
                }
            }
            if (best < 0) {
                break;
            }
            AclRules.setCategory(catalog, fake, best, additive);
            AclRules.setCategory(catalog, temp, best, !additive);
            rules.append(additive ? "+@" : "-@").append(AclCategories.ALL.get(best)).append(' ');
            applied[best] = true;
        }
        singleCommands(catalog.topLevel(), s, fake, rules);
        rules.setLength(rules.length() - 1);
        return rules.toString();
    }

    /** How many commands of a category are on and off in {@code bits}. */
    private long[] count(BitSet bits, int category) {
        long on = 0;
        long off = 0;
        for (CommandCatalog.Entry e : catalog.topLevel()) {
            if (e.inCategory(category)) {
                if (bits.get(e.id)) {
                    on++;
                } else {
                    off++;
                }
            }
            for (CommandCatalog.Entry child : e.children) {
                if (child.inCategory(category)) {
                    if (bits.get(child.id)) {
                        on++;
                    } else {
                        off++;
                    }
                }
            }
        }
        return new long[] {on, off};
    }

    private void singleCommands(List<CommandCatalog.Entry> entries, AclSelector s, BitSet fake, StringBuilder rules) {
        for (CommandCatalog.Entry e : entries) {
            boolean userBit = s.bit(e.id);
            if (userBit != fake.get(e.id)) {
                rules.append(userBit ? '+' : '-').append(e.fullName()).append(' ');
                AclRules.changePermission(fake, e, userBit);
            }
            if (!e.children.isEmpty()) {
                singleCommands(e.children, s, fake, rules);
            }
            List<String> firstArgs = s.firstArgs(e.id);
            if (!userBit && firstArgs != null) {
                for (String a : firstArgs) {
                    rules.append('+').append(e.fullName()).append('|').append(a).append(' ');
                }
            }
        }
    }
}
