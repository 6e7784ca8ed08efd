package io.strata.layers.mutex;

import java.util.ArrayList;
import java.util.List;

/**
 * A resource guarded by fencing tokens, and the history checker of the mutex tests: it
 * accepts a write only with a token at least as large as every token it accepted before, and
 * it records every violation of mutual exclusion it can see — a client entering while another
 * is inside — and every refused write.
 */
final class FencedResource {
    private long largestToken;
    private String inside;
    private final List<String> violations = new ArrayList<>();
    private final List<Long> accepted = new ArrayList<>();
    private int refused;

    /** Enters the critical section as {@code name}; records an overlap if someone is inside. */
    synchronized void enter(String name, long token) {
        if (inside != null) {
            violations.add(name + " (token " + token + ") entered while " + inside + " was inside");
        }
        inside = name + "#" + token;
    }

    synchronized void exit(String name, long token) {
        if (!(name + "#" + token).equals(inside)) {
            violations.add(name + " (token " + token + ") left while " + inside + " was inside");
        }
        inside = null;
    }

    /** A write fenced by {@code token}: refused (false) when a larger token was already accepted. */
    synchronized boolean write(long token) {
        if (token < largestToken) {
            refused++;
            return false;
        }
        largestToken = token;
        accepted.add(token);
        return true;
    }

    synchronized List<String> violations() {
        return List.copyOf(violations);
    }

    synchronized List<Long> accepted() {
        return List.copyOf(accepted);
    }

    synchronized int refused() {
        return refused;
    }
}
