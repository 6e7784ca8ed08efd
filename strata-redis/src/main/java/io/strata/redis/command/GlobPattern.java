package io.strata.redis.command;

/**
 * Redis's glob matching ({@code stringmatchlen}), used by KEYS, SCAN MATCH, PSUBSCRIBE and ACL
 * key patterns: {@code *} any run, {@code ?} one byte, {@code [abc]}, {@code [^a-z]} classes,
 * {@code \} escapes; bytes compared exactly (or ignoring ASCII case when asked).
 */
public final class GlobPattern {
    private GlobPattern() {
    }

    public static boolean matches(byte[] pattern, byte[] string) {
        return matches(pattern, string, false);
    }

    /** Whether the pattern is {@code *}, which Redis's callers treat as "everything" (the empty key too). */
    public static boolean matchesAll(byte[] pattern) {
        return pattern.length == 1 && pattern[0] == '*';
    }

    public static boolean matches(byte[] pattern, byte[] string, boolean nocase) {
        return matchesAll(pattern) || match(pattern, 0, string, 0, nocase, 0, new boolean[1]);
    }

    /**
     * {@code giveUp} is Redis's {@code skipLongerMatches}: once the rest of the pattern after a
     * {@code *} matches nowhere in the rest of the string, no earlier {@code *} can help by
     * matching more, so every level stops — without it, {@code a*a*a*...b} against a long run
     * of {@code a} takes exponential time.
     */
    private static boolean match(byte[] p, int pi, byte[] s, int si, boolean nocase, int depth, boolean[] giveUp) {
        // Deep recursion on pathological patterns: Redis bounds it the same way (nesting 1000).
        if (depth > 1000) {
            return false;
        }
        while (pi < p.length && si < s.length) {
            byte c = p[pi];
            switch (c) {
                case '*':
                    while (pi + 1 < p.length && p[pi + 1] == '*') {
                        pi++;
                    }
                    if (pi + 1 == p.length) {
                        return true;
                    }
                    for (int k = si; k < s.length; k++) {
                        if (match(p, pi + 1, s, k, nocase, depth + 1, giveUp)) {
                            return true;
                        }
                        if (giveUp[0]) {
                            return false;
                        }
                    }
                    giveUp[0] = true;
                    return false;
                case '?':
                    si++;
                    break;
                case '[': {
                    pi++;
                    boolean not = pi < p.length && p[pi] == '^';
                    if (not) {
                        pi++;
                    }
                    boolean found = false;
                    while (true) {
                        if (pi < p.length && p[pi] == '\\' && pi + 1 < p.length) {
                            pi++;
                            if (eq(p[pi], s[si], nocase)) {
                                found = true;
                            }
                        } else if (pi >= p.length) {
                            pi--;
                            break;
                        } else if (p[pi] == ']') {
                            break;
                        } else if (pi + 2 < p.length && p[pi + 1] == '-') {
                            int lo = p[pi] & 0xff;
                            int hi = p[pi + 2] & 0xff;
                            int x = s[si] & 0xff;
                            if (lo > hi) {
                                int t = lo;
                                lo = hi;
                                hi = t;
                            }
                            if (nocase) {
                                lo = Character.toLowerCase(lo);
                                hi = Character.toLowerCase(hi);
                                x = Character.toLowerCase(x);
                            }
                            pi += 2;
                            if (x >= lo && x <= hi) {
                                found = true;
                            }
                        } else if (eq(p[pi], s[si], nocase)) {
                            found = true;
                        }
                        pi++;
                    }
                    if (not) {
                        found = !found;
                    }
                    if (!found) {
                        return false;
                    }
                    si++;
                    break;
                }
                case '\\':
                    if (pi + 1 < p.length) {
                        pi++;
                    }
                    // fall through: compare the escaped byte literally
                default:
                    if (!eq(p[pi], s[si], nocase)) {
                        return false;
                    }
                    si++;
                    break;
            }
            pi++;
            if (si == s.length) {
                while (pi < p.length && p[pi] == '*') {
                    pi++;
                }
                break;
            }
        }
        return pi == p.length && si == s.length;
    }

    private static boolean eq(byte a, byte b, boolean nocase) {
        if (a == b) {
            return true;
        }
        return nocase && Character.toLowerCase(a & 0xff) == Character.toLowerCase(b & 0xff);
    }
}
