package io.strata.redis.commands;

import static io.strata.redis.commands.SetValues.ids;

import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.async.AsyncIterator;
import io.strata.redis.command.Invocation;
import io.strata.redis.command.ScanArgs;
import io.strata.redis.keyspace.ScanCursors;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * SSCAN key cursor [MATCH pattern] [COUNT count]. Walks the set's ids in order from where
 * the cursor says, {@code COUNT} ids per call (MATCH filters the members they name, so a
 * call may return fewer, as in Redis). The cursor is a {@link ScanCursors} record holding
 * the next id to visit (8 bytes big-endian), so a scan resumes exactly where it stopped
 * whatever was added or removed meanwhile: every member present for the whole scan is
 * returned exactly once, which is more than Redis promises (at least once).
 *
 * <p>Checks in Redis's order: the cursor, then the key (a missing key is an empty scan,
 * whatever the options), then the options.
 */
final class SetScan {
    private SetScan() {
    }

    static CompletableFuture<Reply> sscan(Invocation inv, Transaction tr) {
        ScanArgs args;
        RedisException badOption = null;
        try {
            args = ScanArgs.parse(inv, 2, false);
        } catch (RedisException e) {
            if (e.getMessage().equals("ERR invalid cursor")) {
                throw e;
            }
            args = null;
            badOption = e;
        }
        ScanArgs scan = args;
        RedisException deferred = badOption;
        return SetValues.get(inv, tr, inv.arg(1)).thenCompose(meta -> {
            if (meta == null) {
                return CompletableFuture.completedFuture(reply(0, List.of()));
            }
            if (deferred != null) {
                throw deferred;
            }
            ScanCursors cursors = new ScanCursors(SetValues.keys(inv).keyspace());
            return cursors.load(tr, scan.cursor()).thenCompose(resume -> {
                long from = resume == null || resume.length != Long.BYTES ? 0 : ByteBuffer.wrap(resume).getLong();
                AsyncIterator<Long> it = ids(inv, meta).members(tr, from).iterator();
                int count = (int) Math.min(scan.count(), 100_000);
                return take(it, count, new ArrayList<>()).thenCompose(taken -> it.onHasNext().thenCompose(more -> {
                    long[] visited = taken.stream().mapToLong(Long::longValue).toArray();
                    it.cancel();
                    long cursor = more && visited.length > 0
                            ? cursors.save(tr, ByteBuffer.allocate(Long.BYTES).putLong(visited[visited.length - 1] + 1).array(), inv.now())
                            : 0;
                    return SetValues.strings(inv, tr, visited).thenApply(members -> {
                        List<byte[]> matching = new ArrayList<>(members.size());
                        for (byte[] m : members) {
                            if (scan.matches(m)) {
                                matching.add(m);
                            }
                        }
                        return reply(cursor, matching);
                    });
                }));
            });
        });
    }

    /** Up to {@code n} more ids from {@code it}, into {@code into}. */
    private static CompletableFuture<List<Long>> take(AsyncIterator<Long> it, int n, List<Long> into) {
        while (into.size() < n) {
            CompletableFuture<Boolean> next = it.onHasNext();
            if (!next.isDone()) {
                return next.thenCompose(ignored -> take(it, n, into));
            }
            if (!next.join()) {
                break;
            }
            into.add(it.next());
        }
        return CompletableFuture.completedFuture(into);
    }

    private static Reply reply(long cursor, List<byte[]> members) {
        return Reply.array(Reply.bulk(Long.toUnsignedString(cursor)), Reply.bulks(members));
    }
}
