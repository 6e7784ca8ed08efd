package io.strata.redis.acl;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedList;
import java.util.List;

/**
 * ACL LOG: the latest denied commands, keys, channels and failed logins of this server,
 * newest first. As in Redis, an event like one of the ten newest entries (same reason,
 * context, object and user, within a minute) bumps that entry's count and moves it to the
 * front instead of adding one; the log keeps at most {@code acllog-max-len} entries.
 *
 * <p>The log is this process's, as each Redis server has its own: events are not shared
 * between servers on one database.
 *
 * <p>Concurrency: every method is synchronized; entries are copied out.
 */
final class AclLog {
    private static final long GROUPING_MILLIS = 60_000;
    private static final int GROUPING_SCAN = 10;

    /** One entry as ACL LOG shows it. */
    record Entry(long count, String reason, String context, String object, String username, long createdMillis,
                 String clientInfo) {
    }

    private static final class Mutable {
        long count = 1;
        final String reason;
        final String context;
        final String object;
        final String username;
        long createdMillis;
        String clientInfo;

        Mutable(String reason, String context, String object, String username, long createdMillis, String clientInfo) {
            this.reason = reason;
            this.context = context;
            this.object = object;
            this.username = username;
            this.createdMillis = createdMillis;
            this.clientInfo = clientInfo;
        }
    }

    private final LinkedList<Mutable> entries = new LinkedList<>();

    synchronized void add(String reason, String context, String object, String username, long now, String clientInfo,
                          long maxLength) {
        Iterator<Mutable> it = entries.iterator();
        for (int scanned = 0; scanned < GROUPING_SCAN && it.hasNext(); scanned++) {
            Mutable e = it.next();
            if (e.reason.equals(reason) && e.context.equals(context) && e.object.equals(object)
                    && e.username.equals(username) && Math.abs(e.createdMillis - now) <= GROUPING_MILLIS) {
                it.remove();
                e.count++;
                e.createdMillis = now;
                e.clientInfo = clientInfo;
                entries.addFirst(e);
                return;
            }
        }
        entries.addFirst(new Mutable(reason, context, object, username, now, clientInfo));
        while (entries.size() > maxLength) {
            entries.removeLast();
        }
    }

    synchronized List<Entry> newest(long count) {
        List<Entry> out = new ArrayList<>();
        for (Mutable e : entries) {
            if (out.size() >= count) {
                break;
            }
            out.add(new Entry(e.count, e.reason, e.context, e.object, e.username, e.createdMillis, e.clientInfo));
        }
        return out;
    }

    synchronized void reset() {
        entries.clear();
    }
}
