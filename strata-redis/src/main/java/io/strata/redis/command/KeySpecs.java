package io.strata.redis.command;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Which arguments of a command are keys, and how the command uses each: Redis 7.0's key
 * specifications, the facts that ACL key patterns ({@code ~}, {@code %R~}, {@code %W~}) are
 * checked against. A key is <em>read</em> when the command reads its value (Redis's
 * {@code ACCESS}), <em>written</em> when the command inserts, deletes or updates it, both, or
 * neither (existence and length tests such as EXISTS, TYPE, STRLEN: any pattern that names
 * the key allows them).
 *
 * <p>Each command's specs are written in a small notation, one command a line:
 * {@code name: ACCESS BEGIN FIND[, ...]}. ACCESS is {@code R}, {@code W}, {@code RW} or
 * {@code -}. BEGIN is an argument index, or {@code KEYWORD@from}: the key follows the keyword,
 * searched from index {@code from} (backwards when negative). FIND is
 * {@code ..last[/step][%limit]}, a range whose {@code last} is relative to the first key, or
 * from the end when negative ({@code limit} divides what is left: XREAD's streams are half of
 * it); or {@code #idx+first[/step]}, a count of keys at {@code idx} after the begin index, the
 * keys starting {@code first} after it. The commands whose keys depend on their options (SET
 * with GET, BITFIELD's GET-only form, SORT's STORE, MIGRATE's KEYS) have finders in code, as
 * Redis has {@code getkeys} procedures for them.
 *
 * <p>A command this table does not know (not one of Redis 7.0's) falls back to its
 * first/last/step positions, read for a read-only command and read-write otherwise: never
 * more permissive than the strictest reading of its keys.
 *
 * <p>Concurrency: immutable after class initialisation.
 */
public final class KeySpecs {
    /** The command reads the key's value. */
    public static final int READ = 1;
    /** The command inserts, deletes or updates the key. */
    public static final int WRITE = 2;

    /** A key argument: its position in the request and how the command uses it ({@link #READ}, {@link #WRITE}). */
    public record KeyRef(int position, int access) {
    }

    /** Where one spec's keys begin and how many follow. */
    private record Spec(int access, int index, String keyword, int startFrom, boolean keynum,
                        int last, int step, int limit, int keynumIndex, int firstKey) {
    }

    /** How one command's keys are found in its requests; {@link #finderFor} gives it once per command. */
    public interface Finder {
        List<KeyRef> keys(byte[][] args);
    }

    private static final String TABLE = """
            append: W 1..0
            bitcount: R 1..0
            bitfield_ro: R 1..0
            bitop: W 2..0, R 3..-1
            bitpos: R 1..0
            blmove: RW 1..0, W 2..0
            blmpop: RW 2#0+1
            blpop: RW 1..-2
            brpop: RW 1..-2
            brpoplpush: RW 1..0, W 2..0
            bzmpop: RW 2#0+1
            bzpopmax: RW 1..-2
            bzpopmin: RW 1..-2
            copy: R 1..0, W 2..0
            decr: RW 1..0
            decrby: RW 1..0
            del: W 1..-1
            dump: R 1..0
            eval: RW 2#0+1
            eval_ro: R 2#0+1
            evalsha: RW 2#0+1
            evalsha_ro: R 2#0+1
            exists: - 1..-1
            expire: W 1..0
            expireat: W 1..0
            expiretime: R 1..0
            fcall: RW 2#0+1
            fcall_ro: R 2#0+1
            geoadd: W 1..0
            geodist: R 1..0
            geohash: R 1..0
            geopos: R 1..0
            georadius: R 1..0, W STORE@6..0, W STOREDIST@6..0
            georadius_ro: R 1..0
            georadiusbymember: R 1..0, W STORE@5..0, W STOREDIST@5..0
            georadiusbymember_ro: R 1..0
            geosearch: R 1..0
            geosearchstore: W 1..0, R 2..0
            get: R 1..0
            getbit: R 1..0
            getdel: RW 1..0
            getex: RW 1..0
            getrange: R 1..0
            getset: RW 1..0
            hdel: W 1..0
            hexists: - 1..0
            hget: R 1..0
            hgetall: R 1..0
            hincrby: RW 1..0
            hincrbyfloat: RW 1..0
            hkeys: R 1..0
            hlen: - 1..0
            hmget: R 1..0
            hmset: W 1..0
            hrandfield: R 1..0
            hscan: R 1..0
            hset: W 1..0
            hsetnx: W 1..0
            hstrlen: - 1..0
            hvals: R 1..0
            incr: RW 1..0
            incrby: RW 1..0
            incrbyfloat: RW 1..0
            lcs: R 1..1
            lindex: R 1..0
            linsert: W 1..0
            llen: - 1..0
            lmove: RW 1..0, W 2..0
            lmpop: RW 1#0+1
            lpop: RW 1..0
            lpos: R 1..0
            lpush: W 1..0
            lpushx: W 1..0
            lrange: R 1..0
            lrem: W 1..0
            lset: W 1..0
            ltrim: W 1..0
            memory|usage: - 2..0
            mget: R 1..-1
            move: RW 1..0
            mset: W 1..-1/2
            msetnx: W 1..-1/2
            object|encoding: - 2..0
            object|freq: - 2..0
            object|idletime: - 2..0
            object|refcount: - 2..0
            persist: W 1..0
            pexpire: W 1..0
            pexpireat: W 1..0
            pexpiretime: R 1..0
            pfadd: W 1..0
            pfcount: R 1..-1
            pfdebug: R 2..0
            pfmerge: RW 1..0, R 2..-1
            psetex: W 1..0
            pttl: R 1..0
            rename: RW 1..0, W 2..0
            renamenx: RW 1..0, W 2..0
            restore-asking: W 1..0
            restore: W 1..0
            rpop: RW 1..0
            rpoplpush: RW 1..0, W 2..0
            rpush: W 1..0
            rpushx: W 1..0
            sadd: W 1..0
            scard: - 1..0
            sdiff: R 1..-1
            sdiffstore: W 1..0, R 2..-1
            setbit: RW 1..0
            setex: W 1..0
            setnx: W 1..0
            setrange: W 1..0
            sinter: R 1..-1
            sintercard: R 1#0+1
            sinterstore: W 1..0, R 2..-1
            sismember: - 1..0
            smembers: R 1..0
            smismember: R 1..0
            smove: RW 1..0, W 2..0
            spop: RW 1..0
            srandmember: R 1..0
            srem: W 1..0
            sscan: R 1..0
            strlen: - 1..0
            substr: R 1..0
            sunion: R 1..-1
            sunionstore: W 1..0, R 2..-1
            touch: - 1..-1
            ttl: R 1..0
            type: - 1..0
            unlink: W 1..-1
            watch: - 1..-1
            xack: W 1..0
            xadd: W 1..0
            xautoclaim: W 1..0
            xclaim: W 1..0
            xdel: W 1..0
            xgroup|create: W 2..0
            xgroup|createconsumer: W 2..0
            xgroup|delconsumer: W 2..0
            xgroup|destroy: W 2..0
            xgroup|setid: W 2..0
            xinfo|consumers: R 2..0
            xinfo|groups: R 2..0
            xinfo|stream: R 2..0
            xlen: - 1..0
            xpending: R 1..0
            xrange: R 1..0
            xread: R STREAMS@1..-1%2
            xreadgroup: R STREAMS@4..-1%2
            xrevrange: R 1..0
            xsetid: W 1..0
            xtrim: W 1..0
            zadd: W 1..0
            zcard: - 1..0
            zcount: R 1..0
            zdiff: R 1#0+1
            zdiffstore: W 1..0, R 2#0+1
            zincrby: RW 1..0
            zinter: R 1#0+1
            zintercard: R 1#0+1
            zinterstore: W 1..0, R 2#0+1
            zlexcount: R 1..0
            zmpop: RW 1#0+1
            zmscore: R 1..0
            zpopmax: RW 1..0
            zpopmin: RW 1..0
            zrandmember: R 1..0
            zrange: R 1..0
            zrangebylex: R 1..0
            zrangebyscore: R 1..0
            zrangestore: W 1..0, R 2..0
            zrank: R 1..0
            zrem: W 1..0
            zremrangebylex: W 1..0
            zremrangebyrank: W 1..0
            zremrangebyscore: W 1..0
            zrevrange: R 1..0
            zrevrangebylex: R 1..0
            zrevrangebyscore: R 1..0
            zrevrank: R 1..0
            zscan: R 1..0
            zscore: R 1..0
            zunion: R 1#0+1
            zunionstore: W 1..0, R 2#0+1
            """;

    private static final Map<String, List<Spec>> SPECS = parse(TABLE);
    private static final Map<String, Finder> CUSTOM = Map.of(
            "set", KeySpecs::setKeys,
            "bitfield", KeySpecs::bitfieldKeys,
            "sort", args -> sortKeys(args, true),
            "sort_ro", args -> sortKeys(args, false),
            "migrate", KeySpecs::migrateKeys);

    /**
     * Commands whose only key spec is flagged NOT_KEY in Redis 7.0 (shard channels sit where
     * keys would, for cluster routing): the ACL checks them as channels, never as keys.
     */
    private static final java.util.Set<String> NOT_KEYS = java.util.Set.of("spublish", "ssubscribe", "sunsubscribe");

    private KeySpecs() {
    }

    /** Whether {@code spec} may name keys at all. */
    public static boolean hasKeys(CommandSpec spec) {
        if (NOT_KEYS.contains(spec.name())) {
            return false;
        }
        return SPECS.containsKey(spec.name()) || CUSTOM.containsKey(spec.name()) || spec.firstKey() > 0;
    }

    /**
     * The keys of a request (arguments as sent, the command name first; a subcommand's keys
     * count from the container's name). Empty when the arguments do not fit the specs (a bad
     * key count): the command itself then answers with its error, as in Redis.
     */
    public static List<KeyRef> keys(CommandSpec spec, byte[][] args) {
        return spec.keyFinder().keys(args);
    }

    /**
     * The finder of a command's keys ({@link CommandSpec#keyFinder}): its code finder, its
     * specs of this table, or its first/last/step positions. Keys at fixed positions (GET's,
     * HSET's) are one list made here, returned for every request long enough to hold them.
     */
    static Finder finderFor(String name, int arity, java.util.Set<CommandFlag> flags, int firstKey, int lastKey, int step) {
        if (NOT_KEYS.contains(name)) {
            return args -> List.of();
        }
        Finder custom = CUSTOM.get(name);
        if (custom != null) {
            return custom;
        }
        List<Spec> specs = SPECS.get(name);
        if (specs == null) {
            int access = flags.contains(CommandFlag.READONLY) && !flags.contains(CommandFlag.WRITE) ? READ : READ | WRITE;
            return args -> fallback(access, firstKey, lastKey, step, args);
        }
        Finder walk = args -> {
            List<KeyRef> keys = new ArrayList<>();
            for (Spec s : specs) {
                if (!find(s, args, arity, keys)) {
                    return List.of();
                }
            }
            return keys;
        };
        List<KeyRef> fixed = new ArrayList<>();
        int end = 0;
        for (Spec s : specs) {
            if (s.keyword() != null || s.keynum() || s.last() < 0) {
                return walk;
            }
            for (int i = s.index(); i <= s.index() + s.last(); i += s.step()) {
                fixed.add(new KeyRef(i, s.access()));
                end = Math.max(end, i + 1);
            }
        }
        List<KeyRef> always = List.copyOf(fixed);
        int needed = end;
        // Shorter requests fail their arity check; the walk answers them as before.
        return args -> args.length >= needed ? always : walk.keys(args);
    }

    /** Redis's key-spec walk for one spec; false when the arguments do not fit it. */
    private static boolean find(Spec s, byte[][] args, int arity, List<KeyRef> out) {
        int argc = args.length;
        int first = 0;
        if (s.keyword() == null) {
            first = s.index();
        } else {
            int start = s.startFrom() > 0 ? s.startFrom() : argc + s.startFrom();
            int end = s.startFrom() > 0 ? argc - 1 : 1;
            for (int i = start; i != end; i = start <= end ? i + 1 : i - 1) {
                if (i >= argc || i < 1) {
                    break;
                }
                if (equalsIgnoreCase(args[i], s.keyword())) {
                    first = i + 1;
                    break;
                }
            }
            if (first == 0) {
                return true;
            }
        }
        int last;
        if (!s.keynum()) {
            if (s.last() >= 0) {
                last = first + s.last();
            } else if (s.limit() == 0) {
                last = argc + s.last();
            } else {
                last = first + ((argc - first) / s.limit() + s.last());
            }
        } else {
            int at = first + s.keynumIndex();
            if (at >= argc || !Numbers.isLong(args[at])) {
                return false;
            }
            long n = Numbers.parseLong(args[at], "");
            if (n < 0 || n > argc) {
                return false;
            }
            first += s.firstKey();
            last = first + (int) n - 1;
        }
        if (last >= argc || last < first || first >= argc) {
            return false;
        }
        for (int i = first; i <= last; i += s.step()) {
            if (i >= argc) {
                if (arity < 0) {
                    continue;
                }
                return false;
            }
            out.add(new KeyRef(i, s.access()));
        }
        return true;
    }

    private static List<KeyRef> fallback(int access, int firstKey, int lastKey, int keyStep, byte[][] args) {
        if (firstKey <= 0 || firstKey >= args.length) {
            return List.of();
        }
        int last = lastKey >= 0 ? lastKey : args.length + lastKey;
        int step = Math.max(1, keyStep);
        List<KeyRef> keys = new ArrayList<>();
        for (int i = firstKey; i <= last && i < args.length; i += step) {
            keys.add(new KeyRef(i, access));
        }
        return keys;
    }

    /** SET reads its key only with GET; otherwise it only writes it. */
    private static List<KeyRef> setKeys(byte[][] args) {
        for (int i = 3; i < args.length; i++) {
            if (equalsIgnoreCase(args[i], "GET")) {
                return List.of(new KeyRef(1, READ | WRITE));
            }
        }
        return List.of(new KeyRef(1, WRITE));
    }

    /** BITFIELD with only GET (and OVERFLOW) operations reads; anything else reads and writes. */
    private static List<KeyRef> bitfieldKeys(byte[][] args) {
        boolean readOnly = true;
        for (int i = 2; i < args.length; i++) {
            int left = args.length - i - 1;
            if (equalsIgnoreCase(args[i], "GET") && left >= 2) {
                i += 2;
            } else if ((equalsIgnoreCase(args[i], "SET") || equalsIgnoreCase(args[i], "INCRBY")) && left >= 3) {
                readOnly = false;
                break;
            } else if (equalsIgnoreCase(args[i], "OVERFLOW") && left >= 1) {
                i += 1;
            } else {
                readOnly = false;
                break;
            }
        }
        return List.of(new KeyRef(1, readOnly ? READ : READ | WRITE));
    }

    /** SORT reads its key and writes the last STORE destination (BY and GET patterns are SORT's own check). */
    private static List<KeyRef> sortKeys(byte[][] args, boolean store) {
        List<KeyRef> keys = new ArrayList<>();
        keys.add(new KeyRef(1, READ));
        int destination = store ? SpecialKeys.sortStoreDestination(args) : -1;
        if (destination > 0) {
            keys.add(new KeyRef(destination, WRITE));
        }
        return keys;
    }

    /** MIGRATE moves one key (argument 3), or, with KEYS and an empty key argument, every key after KEYS. */
    private static List<KeyRef> migrateKeys(byte[][] args) {
        int[] range = SpecialKeys.migrateKeys(args);
        List<KeyRef> keys = new ArrayList<>();
        for (int i = range[0]; i < range[0] + range[1] && i < args.length; i++) {
            keys.add(new KeyRef(i, READ | WRITE));
        }
        return keys;
    }

    static boolean equalsIgnoreCase(byte[] arg, String word) {
        return SpecialKeys.equalsIgnoreCase(arg, word);
    }

    private static Map<String, List<Spec>> parse(String table) {
        Map<String, List<Spec>> specs = new HashMap<>();
        for (String line : table.strip().split("\n")) {
            int colon = line.indexOf(':');
            String name = line.substring(0, colon).strip().toLowerCase(Locale.ROOT);
            List<Spec> list = new ArrayList<>();
            for (String part : line.substring(colon + 1).split(",")) {
                list.add(parseSpec(part.strip()));
            }
            specs.put(name, List.copyOf(list));
        }
        return Map.copyOf(specs);
    }

    private static Spec parseSpec(String text) {
        String[] p = text.split(" ");
        int access = (p[0].contains("R") ? READ : 0) | (p[0].contains("W") ? WRITE : 0);
        String rest = p[1];
        int findAt = rest.contains("..") ? rest.indexOf("..") : rest.indexOf('#');
        String begin = rest.substring(0, findAt);
        String find = rest.substring(findAt);
        int index = 0;
        String keyword = null;
        int startFrom = 0;
        int at = begin.indexOf('@');
        if (at >= 0) {
            keyword = begin.substring(0, at);
            startFrom = Integer.parseInt(begin.substring(at + 1));
        } else {
            index = Integer.parseInt(begin);
        }
        if (find.startsWith("#")) {
            String[] parts = find.substring(1).split("[+/]");
            int step = parts.length > 2 ? Integer.parseInt(parts[2]) : 1;
            return new Spec(access, index, keyword, startFrom, true, 0, step, 0,
                    Integer.parseInt(parts[0]), Integer.parseInt(parts[1]));
        }
        String range = find.substring(2);
        int limit = 0;
        int percent = range.indexOf('%');
        if (percent >= 0) {
            limit = Integer.parseInt(range.substring(percent + 1));
            range = range.substring(0, percent);
        }
        int step = 1;
        int slash = range.indexOf('/');
        if (slash >= 0) {
            step = Integer.parseInt(range.substring(slash + 1));
            range = range.substring(0, slash);
        }
        return new Spec(access, index, keyword, startFrom, false, Integer.parseInt(range), step, limit, 0, 0);
    }
}
