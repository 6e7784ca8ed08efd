package io.strata.cli.serve;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import redis.clients.jedis.Jedis;

/**
 * The keys every load client of {@link CrashUnderLoadTest} writes — {@code counter:<k>}
 * (INCR), {@code acct:a} and {@code acct:b} (MULTI transfers), {@code shared:set} (SADD) —
 * as a recovered server must show them, and what they held after the previous recovery.
 *
 * <p>Their commands are not replayed: clients interleave on them. Each client's matched
 * prefix ({@code [lo, hi]}, from its own keys) says which of its shared commands ran for
 * certain (index below {@code lo}), which may have run (below {@code hi}) and which cannot
 * have (the rest: a connection's commands run and become durable in order). A counter must
 * then lie between the certain and the possible increments; the accounts must keep their
 * total (atomicity) and have moved by the certain transfers plus some subset of the possible
 * ones; the set must hold every certain member, and nothing that was not possibly added.
 * Replies add two more: INCR replies are distinct and at most the recovered value, and so are
 * the {@code acct:b} values transfers answered.
 */
final class SharedKeys {
    final long[] counters = new long[CrashUnderLoadTest.COUNTERS];
    long accountB;
    final Set<String> members = new HashSet<>();

    /** Keys that exist: what these add to DBSIZE. */
    int existingKeys() {
        int n = 2 + (members.isEmpty() ? 0 : 1);
        for (long c : counters) {
            n += c != 0 ? 1 : 0;
        }
        return n;
    }

    /**
     * Checks a recovered server against the clients' commands of the last cycle, then takes
     * what it shows as the start of the next.
     *
     * @param lo per client, the shortest prefix of its commands the server's state matches
     * @param hi per client, the longest
     */
    void check(Jedis j, List<LoadClient> clients, int[] lo, int[] hi, List<String> problems) {
        checkCounters(j, clients, lo, hi, problems);
        checkAccounts(j, clients, lo, hi, problems);
        checkSet(j, clients, lo, hi, problems);
    }

    private void checkCounters(Jedis j, List<LoadClient> clients, int[] lo, int[] hi, List<String> problems) {
        for (int k = 0; k < counters.length; k++) {
            String name = "counter:" + k;
            String shown = j.get(name);
            long value = shown == null ? 0 : Long.parseLong(shown);
            long certain = 0;
            long possible = 0;
            Set<Object> replies = new HashSet<>();
            for (LoadClient c : clients) {
                for (int i = 0; i < hi[c.id]; i++) {
                    LoadOp op = c.ops.get(i);
                    if (op.shared == LoadOp.Shared.INCR && op.sharedKey.equals(name)) {
                        possible++;
                        certain += i < lo[c.id] ? 1 : 0;
                        if (op.answered) {
                            if (!replies.add(op.reply)) {
                                problems.add(name + ": two INCRs were answered " + op.reply);
                            }
                            if (op.reply instanceof Long r && (r <= counters[k] || r > value)) {
                                problems.add(name + ": an INCR answered " + r + ", but it was " + counters[k]
                                        + " before and is " + value + " after the crash");
                            }
                        }
                    }
                }
            }
            if (value < counters[k] + certain || value > counters[k] + possible) {
                problems.add(name + " is " + value + " after the crash: it was " + counters[k] + ", and " + certain
                        + " increments were certainly applied (answered, or before a command that was), "
                        + possible + " possibly");
            }
            counters[k] = value;
        }
    }

    private void checkAccounts(Jedis j, List<LoadClient> clients, int[] lo, int[] hi, List<String> problems) {
        long a = Long.parseLong(j.get(LoadOp.ACCOUNT_A));
        long b = Long.parseLong(j.get(LoadOp.ACCOUNT_B));
        if (a + b != CrashUnderLoadTest.TOTAL) {
            problems.add("acct:a + acct:b = " + a + " + " + b + " after the crash, not " + CrashUnderLoadTest.TOTAL
                    + ": a transfer was applied in part");
        }
        long certain = 0;
        List<Long> maybe = new ArrayList<>();
        Set<Object> answeredB = new HashSet<>();
        for (LoadClient c : clients) {
            for (int i = 0; i < hi[c.id]; i++) {
                LoadOp op = c.ops.get(i);
                if (op.shared != LoadOp.Shared.TRANSFER) {
                    continue;
                }
                if (i < lo[c.id]) {
                    certain += op.amount;
                } else {
                    maybe.add(op.amount);
                }
                if (op.answered && op.reply instanceof List<?> l && l.size() == 2) {
                    Object newB = l.get(1);
                    if (!answeredB.add(newB)) {
                        problems.add("two transfers were answered acct:b = " + newB);
                    }
                    if (newB instanceof Long v && (v <= accountB || v > b)) {
                        problems.add("a transfer answered acct:b = " + v + ", but it was " + accountB + " before and is "
                                + b + " after the crash");
                    }
                }
            }
        }
        long unexplained = b - accountB - certain;
        if (unexplained < 0 || !subsetSums(maybe).get((int) Math.min(unexplained, Integer.MAX_VALUE))) {
            problems.add("acct:b moved by " + (b - accountB) + ": " + certain + " in certain transfers, and " + unexplained
                    + " is no sum of the possible ones " + maybe);
        }
        accountB = b;
    }

    private void checkSet(Jedis j, List<LoadClient> clients, int[] lo, int[] hi, List<String> problems) {
        Set<String> shown = j.smembers(LoadOp.SHARED_SET);
        Set<String> lost = new HashSet<>(members);
        lost.removeAll(shown);
        if (!lost.isEmpty()) {
            problems.add(LoadOp.SHARED_SET + " lost members it had before: " + first(lost));
        }
        Set<String> added = new HashSet<>(shown);
        added.removeAll(members);
        for (LoadClient c : clients) {
            for (int i = 0; i < c.ops.size(); i++) {
                LoadOp op = c.ops.get(i);
                if (op.shared != LoadOp.Shared.SADD) {
                    continue;
                }
                boolean there = added.remove(op.sharedKey);
                if (i < lo[c.id] && !there) {
                    problems.add(LoadOp.SHARED_SET + " misses " + op.sharedKey + (op.answered ? ", whose SADD was answered"
                            : ", added before a command of the same client that was applied"));
                } else if (i >= hi[c.id] && there) {
                    problems.add(LoadOp.SHARED_SET + " has " + op.sharedKey
                            + ", added after the last command of the same client that was applied");
                }
            }
        }
        if (!added.isEmpty()) {
            problems.add(LoadOp.SHARED_SET + " has members no client sent: " + first(added));
        }
        members.clear();
        members.addAll(shown);
    }

    private static List<String> first(Set<String> s) {
        return s.stream().sorted().limit(10).toList();
    }

    /** Which totals some subset of {@code amounts} reaches (amounts are small: at most 100 each). */
    static BitSet subsetSums(List<Long> amounts) {
        BitSet reach = new BitSet();
        reach.set(0);
        for (long a : amounts) {
            BitSet shifted = new BitSet();
            for (int i = reach.nextSetBit(0); i >= 0; i = reach.nextSetBit(i + 1)) {
                shifted.set(i + (int) a);
            }
            reach.or(shifted);
        }
        return reach;
    }
}
