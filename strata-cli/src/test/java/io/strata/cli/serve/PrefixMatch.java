package io.strata.cli.serve;

import java.util.List;

/**
 * Which prefixes of a load client's commands a recovered server's view of its keys matches —
 * data, and the deadline of every expiring string —: from the answered ones (which must all
 * be there) up to every one sent. The matching
 * prefixes may be several — commands on shared keys change nothing here — so the shortest
 * ({@link #lo}) and longest ({@link #hi}) are kept, with the model after the shortest.
 *
 * @param model the model after {@code lo} commands, or null when no prefix matches
 * @param explanation when none matches, how the server differs from the model after the
 *                    answered commands and after all of them
 */
record PrefixMatch(ClientKeys model, int lo, int hi, String explanation) {
    static PrefixMatch find(ClientKeys before, LoadClient client, ClientKeys shown, long crashedAt, long ttlSlackMillis) {
        List<LoadOp> ops = client.ops;
        ClientKeys model = before.copy();
        for (int i = 0; i < client.answered; i++) {
            apply(model, ops.get(i), crashedAt);
        }
        List<String> afterAnswered = model.differences(shown);
        ClientKeys first = null;
        int lo = -1;
        int hi = -1;
        List<String> deadlinesOff = null;
        for (int n = client.answered; ; n++) {
            if (model.sameAs(shown)) {
                // An EXPIRE of a key that already expires changes only its deadline: that
                // decides between prefixes the data alone cannot.
                List<String> off = model.expiryProblems(shown, ttlSlackMillis);
                if (off.isEmpty()) {
                    if (first == null) {
                        first = model.copy();
                        lo = n;
                    }
                    hi = n;
                } else if (deadlinesOff == null) {
                    deadlinesOff = off;
                }
            }
            if (n == ops.size()) {
                break;
            }
            apply(model, ops.get(n), crashedAt);
        }
        if (first != null) {
            return new PrefixMatch(first, lo, hi, null);
        }
        if (deadlinesOff != null) {
            return new PrefixMatch(null, -1, -1, "the data matches a prefix, but not the deadlines of its expiring keys: " + deadlinesOff);
        }
        return new PrefixMatch(null, -1, -1, "after the answered commands the model differs in "
                + afterAnswered.stream().limit(6).toList() + "; after all sent, in " + model.differences(shown).stream().limit(6).toList()
                + "; the commands in flight: " + ops.subList(client.answered, Math.min(ops.size(), client.answered + 8)).stream()
                .map(LoadClient::describe).toList());
    }

    private static void apply(ClientKeys model, LoadOp op, long crashedAt) {
        op.effect.apply(model, op.from, op.answered ? op.answeredAt : crashedAt);
    }
}
