package io.strata.redis.command.reference;

import java.util.List;

/**
 * One of a command's key specifications, as Redis 7.0 describes them: where the search for
 * keys begins and how the keys are found from there, and how the command uses those keys
 * ({@code RW access update}, {@code OW update}, {@code RO access} …).
 *
 * @param flags the key flags, as {@code COMMAND INFO} prints them
 * @param begin where the search starts
 * @param find how the keys follow
 */
public record KeySpec(List<String> flags, BeginSearch begin, FindKeys find) {

    public KeySpec {
        flags = List.copyOf(flags);
    }

    public boolean has(String flag) {
        return flags.contains(flag);
    }

    /** Where the search for keys starts. */
    public sealed interface BeginSearch permits Index, Keyword, UnknownBegin {
    }

    /** At a fixed argument position. */
    public record Index(int pos) implements BeginSearch {
    }

    /** After the first (or, for a negative {@code startFrom}, last) occurrence of a keyword. */
    public record Keyword(String keyword, int startFrom) implements BeginSearch {
    }

    /** Not describable: the command finds its keys by its own rules. */
    public record UnknownBegin() implements BeginSearch {
    }

    /** How the keys follow the start. */
    public sealed interface FindKeys permits Range, Keynum, UnknownFind {
    }

    /**
     * A range: {@code lastKey} relative to the start (negative: from the end), every
     * {@code step}-th argument; a non-zero {@code limit} with {@code lastKey} -1 takes
     * 1/limit of the remaining arguments.
     */
    public record Range(int lastKey, int step, int limit) implements FindKeys {
    }

    /** A count argument at {@code keynumIdx} (relative to the start) says how many keys follow from {@code firstKey}. */
    public record Keynum(int keynumIdx, int firstKey, int step) implements FindKeys {
    }

    /** Not describable. */
    public record UnknownFind() implements FindKeys {
    }
}
