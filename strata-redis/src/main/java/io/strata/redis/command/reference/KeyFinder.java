package io.strata.redis.command.reference;

import io.strata.redis.command.SpecialKeys;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Finds the keys of a full command line from the command's key specifications, as Redis 7.0's
 * {@code COMMAND GETKEYS} does: specifications first, and for the few commands whose
 * specifications cannot say (SORT's STORE, the flags of SET and BITFIELD that depend on
 * their options, MIGRATE's KEYS) the command's own rule.
 *
 * <p>Stateless; safe from any thread.
 */
public final class KeyFinder {
    /** The commands that have a rule of their own in Redis (a {@code getkeys_proc}). */
    private static final Set<String> OWN_RULES = Set.of("bitfield", "blmpop", "bzmpop", "eval", "eval_ro", "evalsha",
            "evalsha_ro", "fcall", "fcall_ro", "georadius", "georadiusbymember", "lmpop", "migrate", "set", "sintercard",
            "sort", "sort_ro", "xread", "xreadgroup", "zdiff", "zdiffstore", "zinter", "zintercard", "zinterstore",
            "zmpop", "zunion", "zunionstore");

    private static final List<String> RO_ACCESS = List.of("RO", "access");
    private static final List<String> OW_UPDATE = List.of("OW", "update");
    private static final List<String> RW_ACCESS_UPDATE = List.of("RW", "access", "update");
    private static final List<String> RW_ACCESS_DELETE = List.of("RW", "access", "delete");

    private KeyFinder() {
    }

    /** A key argument: its position in the command line (the name is 0) and how the command uses it. */
    public record FoundKey(int position, List<String> flags) {
    }

    /** Whether the command can have keys at all ({@code COMMAND GETKEYS} refuses those that cannot). */
    public static boolean mayHaveKeys(CommandDoc doc) {
        return OWN_RULES.contains(doc.name()) || doc.keySpecs().stream().anyMatch(s -> !s.has("not_key"));
    }

    /**
     * Whether Redis marks the command {@code movablekeys}: its keys cannot all be found from the
     * legacy (first, last, step) range. As Redis derives it from the specifications: any that is
     * not a plain index-and-range, incomplete, or a range that does not continue the previous
     * one with a step of 1, makes the keys movable.
     */
    public static boolean movableKeys(CommandDoc doc) {
        List<KeySpec> specs = doc.keySpecs();
        if (specs.isEmpty()) {
            return false;
        }
        if (specs.size() == 1 && isPlainRange(specs.get(0))) {
            return specs.get(0).has("incomplete");
        }
        boolean movable = false;
        boolean anyRange = false;
        int last = 0;
        for (KeySpec s : specs) {
            if (!isPlainRange(s)) {
                movable = true;
                continue;
            }
            int pos = ((KeySpec.Index) s.begin()).pos();
            KeySpec.Range r = (KeySpec.Range) s.find();
            if (r.step() != 1 || (last != 0 && last != pos - 1)) {
                movable = true;
                continue;
            }
            movable |= s.has("incomplete");
            anyRange = true;
            int absolute = r.lastKey() >= 0 ? pos + r.lastKey() : r.lastKey();
            // Redis compares unsigned: a count from the end (negative) is beyond any position.
            last = Integer.compareUnsigned(last, absolute) >= 0 ? last : absolute;
        }
        return movable || !anyRange;
    }

    private static boolean isPlainRange(KeySpec s) {
        return s.begin() instanceof KeySpec.Index && s.find() instanceof KeySpec.Range;
    }

    /**
     * The keys of {@code args} (the command line, name first; for a subcommand the name and the
     * subcommand), or null when the arguments do not let them be found.
     */
    public static List<FoundKey> find(CommandDoc doc, byte[][] args) {
        boolean specsReliable = doc.keySpecs().stream().anyMatch(s -> !s.has("not_key"))
                && doc.keySpecs().stream().noneMatch(s -> s.has("variable_flags"));
        if (specsReliable) {
            List<FoundKey> keys = fromSpecs(doc, args);
            if (keys != null) {
                return keys;
            }
        }
        switch (doc.name()) {
            case "set": return List.of(new FoundKey(1, setFlags(args)));
            case "bitfield": return List.of(new FoundKey(1, bitfieldReadOnly(args) ? RO_ACCESS : RW_ACCESS_UPDATE));
            case "sort": return sortKeys(args);
            case "sort_ro": return List.of(new FoundKey(1, RO_ACCESS));
            case "migrate": return migrateKeys(args);
            default: return specsReliable ? null : List.of();
        }
    }

    /** Redis's {@code getKeysUsingKeySpecs}: null when a specification does not fit the arguments. */
    private static List<FoundKey> fromSpecs(CommandDoc doc, byte[][] args) {
        int argc = args.length;
        List<FoundKey> keys = new ArrayList<>();
        for (KeySpec spec : doc.keySpecs()) {
            if (spec.has("not_key")) {
                continue;
            }
            int first;
            if (spec.begin() instanceof KeySpec.Index) {
                first = ((KeySpec.Index) spec.begin()).pos();
            } else if (spec.begin() instanceof KeySpec.Keyword) {
                first = keywordPosition((KeySpec.Keyword) spec.begin(), args);
                if (first == 0) {
                    continue;
                }
            } else {
                return null;
            }
            int last;
            int step;
            if (spec.find() instanceof KeySpec.Range) {
                KeySpec.Range r = (KeySpec.Range) spec.find();
                step = r.step();
                if (r.lastKey() >= 0) {
                    last = first + r.lastKey();
                } else if (r.limit() == 0) {
                    last = argc + r.lastKey();
                } else {
                    last = first + ((argc - first) / r.limit() + r.lastKey());
                }
            } else if (spec.find() instanceof KeySpec.Keynum) {
                KeySpec.Keynum k = (KeySpec.Keynum) spec.find();
                step = k.step();
                int at = first + k.keynumIdx();
                if (k.keynumIdx() >= argc || at >= argc) {
                    return null;
                }
                long count = parseCount(args[at]);
                if (count < 0) {
                    return null;
                }
                first += k.firstKey();
                last = (int) Math.min(Integer.MAX_VALUE, first + count - 1);
            } else {
                return null;
            }
            if (last >= argc || last < first || first >= argc) {
                return null;
            }
            for (int i = first; i <= last; i += step) {
                keys.add(new FoundKey(i, spec.flags()));
            }
            if (spec.has("incomplete")) {
                return null;
            }
        }
        return keys;
    }

    /** The position after the keyword, searched forwards from a positive start or backwards from a negative one; 0 if absent. */
    private static int keywordPosition(KeySpec.Keyword kw, byte[][] args) {
        int argc = args.length;
        int start = kw.startFrom() > 0 ? kw.startFrom() : argc + kw.startFrom();
        int end = kw.startFrom() > 0 ? argc - 1 : 1;
        for (int i = start; i != end; i = start <= end ? i + 1 : i - 1) {
            if (i >= argc || i < 1) {
                break;
            }
            if (equalsIgnoreCase(args[i], kw.keyword())) {
                return i + 1;
            }
        }
        return 0;
    }

    private static List<String> setFlags(byte[][] args) {
        for (int i = 3; i < args.length; i++) {
            if (equalsIgnoreCase(args[i], "get")) {
                return RW_ACCESS_UPDATE;
            }
        }
        return OW_UPDATE;
    }

    private static boolean bitfieldReadOnly(byte[][] args) {
        for (int i = 2; i < args.length; i++) {
            int remaining = args.length - i - 1;
            if (equalsIgnoreCase(args[i], "get") && remaining >= 2) {
                i += 2;
            } else if ((equalsIgnoreCase(args[i], "set") || equalsIgnoreCase(args[i], "incrby")) && remaining >= 3) {
                return false;
            } else if (equalsIgnoreCase(args[i], "overflow") && remaining >= 1) {
                i += 1;
            } else {
                return false;
            }
        }
        return true;
    }

    /** SORT key … [STORE destination]: the key read, and the last STORE's destination. */
    private static List<FoundKey> sortKeys(byte[][] args) {
        List<FoundKey> keys = new ArrayList<>();
        keys.add(new FoundKey(1, RO_ACCESS));
        int store = SpecialKeys.sortStoreDestination(args);
        if (store > 0) {
            keys.add(new FoundKey(store, OW_UPDATE));
        }
        return keys;
    }

    /** MIGRATE's keys ({@link SpecialKeys#migrateKeys}). */
    private static List<FoundKey> migrateKeys(byte[][] args) {
        int[] range = SpecialKeys.migrateKeys(args);
        List<FoundKey> keys = new ArrayList<>();
        for (int i = 0; i < range[1]; i++) {
            keys.add(new FoundKey(range[0] + i, RW_ACCESS_DELETE));
        }
        return keys;
    }

    private static long parseCount(byte[] b) {
        String s = new String(b, StandardCharsets.US_ASCII);
        try {
            if (s.isEmpty() || s.startsWith("+") || (s.length() > 1 && s.startsWith("0")) || s.startsWith("-0")) {
                return -1;
            }
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static boolean equalsIgnoreCase(byte[] arg, String word) {
        return SpecialKeys.equalsIgnoreCase(arg, word);
    }
}
