package io.strata.redis.keyspace;

import com.apple.foundationdb.Transaction;
import io.strata.redis.config.NotifyKeyspaceEvents;

import java.nio.charset.StandardCharsets;

/**
 * Keyspace notifications, as Redis's {@code notifyKeyspaceEvent}: when
 * {@code notify-keyspace-events} enables an event's class, the event is published on
 * {@code __keyspace@<db>__:<key>} (message: the event name) if {@code K} is set, then on
 * {@code __keyevent@<db>__:<event>} (message: the key) if {@code E} is set.
 *
 * <p>Commands call {@link #publish} inside their own transaction, after the change the event
 * names: the messages are appended to the pub/sub queue in that transaction, so they are
 * delivered only if it commits, in commit order, to subscribers of every server process
 * sharing the database — never for a command that failed or an attempt that was retried.
 * Nothing is stored here; the classes are the {@link NotifyKeyspaceEvents} bits.
 *
 * <p>Cost when off (the default): one volatile read per event, no database access.
 *
 * <p>Concurrency: thread-safe; the enabled classes are one volatile field that CONFIG SET
 * replaces, seen by every connection's next event.
 */
public final class KeyspaceEvents {
    /** Where the messages go: pub/sub's queue, in the caller's transaction. */
    @FunctionalInterface
    public interface Publisher {
        void publish(Transaction tr, byte[] channel, byte[] message);
    }

    private final Publisher publisher;
    private volatile int flags;

    public KeyspaceEvents(Publisher publisher) {
        this.publisher = publisher;
    }

    /** Sets the enabled classes ({@link NotifyKeyspaceEvents#flags} bits). */
    public void enable(int classes) {
        this.flags = classes;
    }

    /** Whether events of {@code type} (one class bit) are published: lets a caller skip work that only an event needs. */
    public boolean enabled(int type) {
        int f = flags;
        return (f & type) != 0 && (f & (NotifyKeyspaceEvents.KEYSPACE | NotifyKeyspaceEvents.KEYEVENT)) != 0;
    }

    /** Publishes event {@code event} of class {@code type} for {@code key} of database {@code db}, if enabled. */
    public void publish(Transaction tr, int type, String event, int db, byte[] key) {
        int f = flags;
        if ((f & type) == 0) {
            return;
        }
        byte[] name = event.getBytes(StandardCharsets.US_ASCII);
        if ((f & NotifyKeyspaceEvents.KEYSPACE) != 0) {
            publisher.publish(tr, channel("__keyspace@" + db + "__:", key), name);
        }
        if ((f & NotifyKeyspaceEvents.KEYEVENT) != 0) {
            publisher.publish(tr, channel("__keyevent@" + db + "__:", name), key);
        }
    }

    private static byte[] channel(String prefix, byte[] suffix) {
        byte[] p = prefix.getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[p.length + suffix.length];
        System.arraycopy(p, 0, out, 0, p.length);
        System.arraycopy(suffix, 0, out, p.length, suffix.length);
        return out;
    }
}
