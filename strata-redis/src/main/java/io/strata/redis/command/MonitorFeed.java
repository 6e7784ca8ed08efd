package io.strata.redis.command;

import io.strata.redis.protocol.Reply;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The connections in MONITOR mode and the line each executed command sends them, in Redis's
 * format: {@code +1700000000.123456 [0 127.0.0.1:5555] "set" "k" "v"} — the time in
 * microseconds, the database and client, and each argument quoted with Redis's escapes.
 *
 * <p>Concurrency: monitors are added and removed by their connections and fed by every
 * connection that runs a command; the map is concurrent and each monitor's consumer must
 * accept calls from any thread (the connection hands the line to its own event loop).
 */
public final class MonitorFeed {
    private final Map<Long, Consumer<Reply>> monitors = new ConcurrentHashMap<>();

    public void add(long clientId, Consumer<Reply> sink) {
        monitors.put(clientId, sink);
    }

    public void remove(long clientId) {
        monitors.remove(clientId);
    }

    public boolean isMonitor(long clientId) {
        return monitors.containsKey(clientId);
    }

    public int size() {
        return monitors.size();
    }

    /** Sends a command's line to every monitor but the client that ran it. */
    public void feed(ClientSession client, int db, byte[][] args, long unixMicros) {
        if (monitors.isEmpty()) {
            return;
        }
        Reply line = Reply.simple(format(db, client.address(), args, unixMicros));
        monitors.forEach((id, sink) -> {
            if (id != client.id()) {
                try {
                    sink.accept(line);
                } catch (RuntimeException closing) {
                    // A monitor going away must not fail the command that fed it.
                    monitors.remove(id);
                }
            }
        });
    }

    static String format(int db, String address, byte[][] args, long unixMicros) {
        StringBuilder sb = new StringBuilder(64);
        sb.append(unixMicros / 1_000_000).append('.');
        String micros = Long.toString(unixMicros % 1_000_000);
        sb.append("000000", 0, 6 - micros.length()).append(micros);
        sb.append(" [").append(db).append(' ').append(address).append(']');
        for (byte[] a : args) {
            sb.append(' ');
            quote(sb, a);
        }
        return sb.toString();
    }

    /** Redis's {@code sdscatrepr}: printable ASCII as is, the usual escapes, other bytes as {@code \xHH}. */
    static void quote(StringBuilder sb, byte[] arg) {
        sb.append('"');
        for (byte b : arg) {
            int c = b & 0xff;
            switch (c) {
                case '\\': sb.append("\\\\"); break;
                case '"': sb.append("\\\""); break;
                case '\n': sb.append("\\n"); break;
                case '\r': sb.append("\\r"); break;
                case '\t': sb.append("\\t"); break;
                case 7: sb.append("\\a"); break;
                case '\b': sb.append("\\b"); break;
                default:
                    if (c >= 0x20 && c < 0x7f) {
                        sb.append((char) c);
                    } else {
                        sb.append("\\x").append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 15, 16));
                    }
            }
        }
        sb.append('"');
    }
}
