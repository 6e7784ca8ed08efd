package io.strata.redis;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A bare RESP connection for tests that must see the reply's exact bytes (which null a
 * command answers, RESP2 {@code $-1} or {@code *-1}, RESP3 {@code _}) that client libraries
 * hide. Reads one reply line at a time.
 */
final class RawConnection implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    RawConnection(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(10_000);
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    /** Sends a command as a RESP array of bulk strings. */
    void send(String... args) throws IOException {
        StringBuilder sb = new StringBuilder("*").append(args.length).append("\r\n");
        for (String a : args) {
            byte[] b = a.getBytes(StandardCharsets.UTF_8);
            sb.append('$').append(b.length).append("\r\n").append(a).append("\r\n");
        }
        out.write(sb.toString().getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /** Sends a command whose arguments are any bytes. */
    void sendBytes(byte[]... args) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(("*" + args.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (byte[] a : args) {
            b.writeBytes(("$" + a.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            b.writeBytes(a);
            b.writeBytes(new byte[] {'\r', '\n'});
        }
        out.write(b.toByteArray());
        out.flush();
    }

    /** The next line of the reply stream as bytes, without its CRLF. */
    byte[] lineBytes() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int prev = -1;
        while (true) {
            int c = in.read();
            if (c < 0) {
                throw new IOException("connection closed");
            }
            if (prev == '\r' && c == '\n') {
                byte[] bytes = b.toByteArray();
                return java.util.Arrays.copyOf(bytes, bytes.length - 1);
            }
            b.write(c);
            prev = c;
        }
    }

    /** The next line of the reply stream, without its CRLF. */
    String line() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int prev = -1;
        while (true) {
            int c = in.read();
            if (c < 0) {
                throw new IOException("connection closed");
            }
            if (prev == '\r' && c == '\n') {
                byte[] bytes = b.toByteArray();
                return new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
            }
            b.write(c);
            prev = c;
        }
    }

    /** Sends a command and returns the first line of its reply. */
    String call(String... args) throws IOException {
        send(args);
        return line();
    }

    /** Switches to RESP3 (HELLO 3) and skips HELLO's reply map. */
    void resp3() throws IOException {
        send("HELLO", "3");
        String header = line();
        int entries = Integer.parseInt(header.substring(1));
        for (int i = 0; i < entries * 2; i++) {
            skipValue();
        }
    }

    private void skipValue() throws IOException {
        String l = line();
        char t = l.charAt(0);
        if (t == '$' || t == '=') {
            int n = Integer.parseInt(l.substring(1));
            if (n >= 0) {
                line();
            }
        } else if (t == '*' || t == '~' || t == '%') {
            int n = Integer.parseInt(l.substring(1));
            for (int i = 0; i < (t == '%' ? 2 * n : n); i++) {
                skipValue();
            }
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
