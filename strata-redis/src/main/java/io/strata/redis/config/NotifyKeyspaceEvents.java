package io.strata.redis.config;

/**
 * The {@code notify-keyspace-events} classes: which keyspace notifications the server
 * publishes. Parsed and printed as Redis does ({@code A} stands for every event class but
 * {@code m} and {@code n}); {@link #flags} gives the bits to whoever publishes them.
 */
public final class NotifyKeyspaceEvents {
    public static final int KEYSPACE = 1;
    public static final int KEYEVENT = 1 << 1;
    public static final int GENERIC = 1 << 2;
    public static final int STRING = 1 << 3;
    public static final int LIST = 1 << 4;
    public static final int SET = 1 << 5;
    public static final int HASH = 1 << 6;
    public static final int ZSET = 1 << 7;
    public static final int EXPIRED = 1 << 8;
    public static final int EVICTED = 1 << 9;
    public static final int STREAM = 1 << 10;
    public static final int KEY_MISS = 1 << 11;
    public static final int MODULE = 1 << 13;
    public static final int NEW = 1 << 14;
    public static final int ALL = GENERIC | STRING | LIST | SET | HASH | ZSET | EXPIRED | EVICTED | STREAM | MODULE;

    private NotifyKeyspaceEvents() {
    }

    /** The bits of a class string; throws for an unknown class. */
    public static int flags(String classes) throws ConfigException {
        int flags = 0;
        for (char c : classes.toCharArray()) {
            switch (c) {
                case 'A': flags |= ALL; break;
                case 'g': flags |= GENERIC; break;
                case '$': flags |= STRING; break;
                case 'l': flags |= LIST; break;
                case 's': flags |= SET; break;
                case 'h': flags |= HASH; break;
                case 'z': flags |= ZSET; break;
                case 'x': flags |= EXPIRED; break;
                case 'e': flags |= EVICTED; break;
                case 'K': flags |= KEYSPACE; break;
                case 'E': flags |= KEYEVENT; break;
                case 't': flags |= STREAM; break;
                case 'm': flags |= KEY_MISS; break;
                case 'd': flags |= MODULE; break;
                case 'n': flags |= NEW; break;
                default: throw new ConfigException("Invalid event class character. Use 'Ag$lshzxeKEtmdn'.");
            }
        }
        return flags;
    }

    /**
     * The value kept for the parameter: every class, in Redis's order. It keeps {@code n}
     * next to {@code A}, which Redis's printing drops ({@link #printed}) though Redis still
     * publishes {@code new} events: the kept value must say what the server does.
     */
    static String canonical(String classes) throws ConfigException {
        return text(flags(classes), true);
    }

    /** The value as Redis's CONFIG GET and CONFIG REWRITE print it: with {@code A}, no {@code n}. */
    static String printed(String canonical) {
        try {
            return text(flags(canonical), false);
        } catch (ConfigException e) {
            return canonical;
        }
    }

    private static String text(int f, boolean keepNewWithAll) {
        StringBuilder sb = new StringBuilder();
        if ((f & ALL) == ALL) {
            sb.append('A');
            if (keepNewWithAll) {
                append(sb, f, NEW, 'n');
            }
        } else {
            append(sb, f, GENERIC, 'g');
            append(sb, f, STRING, '$');
            append(sb, f, LIST, 'l');
            append(sb, f, SET, 's');
            append(sb, f, HASH, 'h');
            append(sb, f, ZSET, 'z');
            append(sb, f, EXPIRED, 'x');
            append(sb, f, EVICTED, 'e');
            append(sb, f, STREAM, 't');
            append(sb, f, MODULE, 'd');
            append(sb, f, NEW, 'n');
        }
        append(sb, f, KEYSPACE, 'K');
        append(sb, f, KEYEVENT, 'E');
        append(sb, f, KEY_MISS, 'm');
        return sb.toString();
    }

    private static void append(StringBuilder sb, int flags, int bit, char c) {
        if ((flags & bit) != 0) {
            sb.append(c);
        }
    }
}
