package io.strata.redis.command.reference;

import java.util.List;

/**
 * What Redis 7.0 says about one command or subcommand, apart from what this server's own
 * command table says (arity, flags, handler): its documentation, its key specifications and
 * its syntax, and — to check the table against — what Redis's {@code COMMAND INFO} reports.
 *
 * @param name lower case; a subcommand as {@code container|sub}
 * @param redis what Redis 7.0.15's {@code COMMAND INFO} reports for it
 * @param group the documentation group ({@code string}, {@code sorted-set}, {@code server} …)
 * @param since the Redis version that introduced it
 * @param summary one sentence about what it does (written for Strata)
 * @param tips Redis's command tips ({@code nondeterministic_output} …)
 * @param docFlags {@code deprecated}, {@code syscmd}
 * @param deprecatedSince the version that deprecated it, or null
 * @param replacedBy what replaces a deprecated command, or null
 * @param keySpecs its key specifications, in Redis's order
 * @param arguments its syntax
 */
public record CommandDoc(String name, RedisInfo redis, String group, String since, String summary,
                         List<String> tips, List<String> docFlags, String deprecatedSince, String replacedBy,
                         List<KeySpec> keySpecs, List<ArgumentDoc> arguments) {

    public CommandDoc {
        tips = List.copyOf(tips);
        docFlags = List.copyOf(docFlags);
        keySpecs = List.copyOf(keySpecs);
        arguments = List.copyOf(arguments);
    }

    /**
     * Redis 7.0.15's {@code COMMAND INFO} for the command.
     *
     * @param arity the arity
     * @param flags the command flags, {@code movablekeys} included
     * @param firstKey the legacy first key position
     * @param lastKey the legacy last key position
     * @param step the legacy key step
     * @param categories the ACL categories with their {@code @}
     */
    public record RedisInfo(int arity, List<String> flags, int firstKey, int lastKey, int step, List<String> categories) {
        public RedisInfo {
            flags = List.copyOf(flags);
            categories = List.copyOf(categories);
        }
    }
}
