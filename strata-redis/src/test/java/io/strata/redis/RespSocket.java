package io.strata.redis;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * A plain socket to the server for protocol tests: sends raw bytes or commands, and reads one
 * whole reply of any RESP2/RESP3 type back as its raw text, so tests can check exact bytes.
 */
final class RespSocket implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    RespSocket(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(10_000);
        in = new BufferedInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    RespSocket send(String raw) throws IOException {
        return send(raw.getBytes(StandardCharsets.ISO_8859_1));
    }

    RespSocket send(byte[] raw) throws IOException {
        out.write(raw);
        out.flush();
        return this;
    }

    /** Sends a command in the multibulk form. */
    RespSocket command(String... args) throws IOException {
        StringBuilder sb = new StringBuilder("*").append(args.length).append("\r\n");
        for (String a : args) {
            sb.append('$').append(a.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(a).append("\r\n");
        }
        out.write(sb.toString().getBytes(StandardCharsets.UTF_8));
        out.flush();
        return this;
    }

    /** Reads one reply, nested replies included, as the raw text the server sent. */
    String reply() throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        readReply(buf);
        return buf.toString(StandardCharsets.UTF_8);
    }

    private void readReply(ByteArrayOutputStream buf) throws IOException {
        String line = readLine();
        buf.write((line + "\r\n").getBytes(StandardCharsets.UTF_8));
        char type = line.charAt(0);
        String rest = line.substring(1);
        switch (type) {
            case '$': case '=': case '!': {
                int n = Integer.parseInt(rest);
                if (n >= 0) {
                    byte[] data = in.readNBytes(n + 2);
                    buf.write(data);
                }
                break;
            }
            case '*': case '~': case '>': {
                int n = Integer.parseInt(rest);
                for (int i = 0; i < n; i++) {
                    readReply(buf);
                }
                break;
            }
            case '%': case '|': {
                int n = Integer.parseInt(rest);
                for (int i = 0; i < 2 * n; i++) {
                    readReply(buf);
                }
                break;
            }
            default:
                break;
        }
    }

    private String readLine() throws IOException {
        StringBuilder sb = new StringBuilder();
        int c;
        while ((c = in.read()) != -1) {
            if (c == '\r') {
                int n = in.read();
                if (n == '\n') {
                    return sb.toString();
                }
                sb.append('\r');
                if (n == -1) {
                    break;
                }
                c = n;
            }
            sb.append((char) c);
        }
        throw new IOException("connection closed after '" + sb + "'");
    }

    /** Whether the server closed the connection (reads until end of stream, up to the timeout). */
    boolean closedByServer() throws IOException {
        try {
            while (in.read() != -1) {
                // drain anything still sent
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }

    /** Sends a FIN: the client's output ends, its input stays open for the replies. */
    RespSocket shutdownOutput() throws IOException {
        socket.shutdownOutput();
        return this;
    }

    void timeout(int millis) throws IOException {
        socket.setSoTimeout(millis);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
