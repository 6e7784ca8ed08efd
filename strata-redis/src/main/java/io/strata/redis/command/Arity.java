package io.strata.redis.command;

/**
 * Redis's arity rule: a positive arity is the exact number of arguments including the command
 * name; a negative one is the minimum ({@code -2}: the name and at least one argument).
 */
final class Arity {
    private Arity() {
    }

    static boolean accepts(int arity, int argc) {
        return arity >= 0 ? argc == arity : argc >= -arity;
    }
}
