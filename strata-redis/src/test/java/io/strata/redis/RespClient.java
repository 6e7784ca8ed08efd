package io.strata.redis;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A bare RESP connection for tests that must see exactly what the server sends: several
 * replies to one command (SUBSCRIBE), pushed messages, RESP3 push frames. Replies are read as
 * Java values: simple and bulk strings as {@code String}, integers as {@code Long}, nulls as
 * null, arrays and pushes as {@code List}, errors as {@link Error}; {@link #lastWasPush}
 * tells a RESP3 push from an array.
 */
final class RespClient implements AutoCloseable {
    /** An error reply. */
    record Error(String message) {
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private boolean lastWasPush;

    RespClient(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(10_000);
        in = new BufferedInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    /** Sends a command without reading anything. */
    RespClient send(String... args) throws IOException {
        StringBuilder sb = new StringBuilder("*").append(args.length).append("\r\n");
        for (String a : args) {
            byte[] b = a.getBytes(StandardCharsets.UTF_8);
            sb.append('$').append(b.length).append("\r\n").append(a).append("\r\n");
        }
        out.write(sb.toString().getBytes(StandardCharsets.UTF_8));
        out.flush();
        return this;
    }

    /** Sends a command and reads one reply. */
    Object call(String... args) throws IOException {
        send(args);
        return read();
    }

    /** Reads the next reply or pushed message. */
    Object read() throws IOException {
        int type = in.read();
        if (type < 0) {
            throw new IOException("connection closed");
        }
        String line = line();
        lastWasPush = type == '>';
        switch (type) {
            case '+':
                return line;
            case '-':
                return new Error(line);
            case ':':
                return Long.parseLong(line);
            case '_':
                return null;
            case '$': {
                int n = Integer.parseInt(line);
                if (n < 0) {
                    return null;
                }
                byte[] b = in.readNBytes(n + 2);
                return new String(b, 0, n, StandardCharsets.UTF_8);
            }
            case '*':
            case '>':
            case '~':
            case '%': {
                int n = Integer.parseInt(line);
                if (n < 0) {
                    return null;
                }
                boolean push = type == '>';
                List<Object> items = new ArrayList<>();
                for (int i = 0; i < (type == '%' ? 2 * n : n); i++) {
                    items.add(read());
                }
                lastWasPush = push;
                return items;
            }
            default:
                throw new IOException("unexpected reply type " + (char) type + line);
        }
    }

    /** Whether nothing arrives within {@code millis}. */
    boolean silentFor(int millis) throws IOException {
        socket.setSoTimeout(millis);
        try {
            int b = in.read();
            if (b >= 0) {
                throw new AssertionError("unexpected data from the server: " + (char) b);
            }
            return false;
        } catch (SocketTimeoutException e) {
            return true;
        } finally {
            socket.setSoTimeout(10_000);
        }
    }

    boolean lastWasPush() {
        return lastWasPush;
    }

    private String line() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) != '\r') {
            if (c < 0) {
                throw new IOException("connection closed");
            }
            b.write(c);
        }
        in.read();
        return b.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
