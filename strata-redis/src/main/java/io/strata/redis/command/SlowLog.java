package io.strata.redis.command;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * The slow log: the latest commands that ran for at least {@code slowlog-log-slower-than}
 * microseconds, newest first, at most {@code slowlog-max-len} of them. An entry keeps at most
 * 32 arguments (the last saying how many more there were) of at most 128 bytes each, as in
 * Redis, so a huge command does not pin its arguments in memory.
 *
 * <p>Concurrency: every method is synchronized; recording happens after a command's reply is
 * known, off the path that computes it.
 */
public final class SlowLog {
    static final int MAX_ARGUMENTS = 32;
    static final int MAX_ARGUMENT_BYTES = 128;

    private final ArrayDeque<Entry> entries = new ArrayDeque<>();
    private long nextId;

    /**
     * One logged command.
     *
     * @param id increasing from 0 since the server started (RESET does not restart it)
     * @param unixSeconds when it ran
     * @param micros how long it ran
     * @param args its arguments, shortened
     * @param client the client's address
     * @param clientName the client's name, or empty
     */
    public record Entry(long id, long unixSeconds, long micros, List<byte[]> args, String client, String clientName) {
    }

    /**
     * Logs a command if it ran for at least {@code slowerThanMicros} (a negative threshold
     * disables the log) and trims the log to {@code maxLength}.
     */
    public void record(byte[][] args, long unixSeconds, long micros, String client, String clientName,
                       long slowerThanMicros, long maxLength) {
        // Most commands are fast: decide before taking the lock, so they never contend for it.
        if (slowerThanMicros < 0 || micros < slowerThanMicros) {
            return;
        }
        List<byte[]> shortened = shorten(args);
        synchronized (this) {
            entries.addFirst(new Entry(nextId++, unixSeconds, micros, shortened, client, clientName));
            while (entries.size() > maxLength) {
                entries.removeLast();
            }
        }
    }

    /** Whether a command that ran {@code micros} would be logged. */
    public static boolean logs(long micros, long slowerThanMicros) {
        return slowerThanMicros >= 0 && micros >= slowerThanMicros;
    }

    /** The newest {@code count} entries (all for a negative count), newest first. */
    public synchronized List<Entry> latest(long count) {
        List<Entry> out = new ArrayList<>();
        Iterator<Entry> it = entries.iterator();
        while (it.hasNext() && (count < 0 || out.size() < count)) {
            out.add(it.next());
        }
        return out;
    }

    public synchronized int size() {
        return entries.size();
    }

    public synchronized void reset() {
        entries.clear();
    }

    private static List<byte[]> shorten(byte[][] args) {
        int kept = Math.min(args.length, MAX_ARGUMENTS);
        List<byte[]> out = new ArrayList<>(kept);
        for (int i = 0; i < kept; i++) {
            if (kept != args.length && i == kept - 1) {
                out.add(("... (" + (args.length - kept + 1) + " more arguments)").getBytes(StandardCharsets.US_ASCII));
            } else if (args[i].length > MAX_ARGUMENT_BYTES) {
                byte[] head = Arrays.copyOf(args[i], MAX_ARGUMENT_BYTES);
                byte[] tail = ("... (" + (args[i].length - MAX_ARGUMENT_BYTES) + " more bytes)").getBytes(StandardCharsets.US_ASCII);
                byte[] both = Arrays.copyOf(head, head.length + tail.length);
                System.arraycopy(tail, 0, both, head.length, tail.length);
                out.add(both);
            } else {
                out.add(args[i]);
            }
        }
        return out;
    }
}
