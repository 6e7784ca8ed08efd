package io.strata.cli.serve;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** {@code strata serve redis} in a child JVM (the test's class path), for crash and signal tests. */
final class ServerProcess implements AutoCloseable {
    final Process process;
    final int port;
    final List<String> output = new ArrayList<>();
    private final CompletableFuture<String> ready = new CompletableFuture<>();

    private ServerProcess(Process process, int port) {
        this.process = process;
        this.port = port;
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    synchronized (output) {
                        output.add(line);
                    }
                    if (line.startsWith("strata-redis ready")) {
                        ready.complete(line);
                    }
                }
            } catch (IOException ignored) {
                // the process died: what it printed is kept
            }
            ready.complete(null);
        });
        reader.setDaemon(true);
        reader.start();
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** Starts {@code serve redis --port P} plus {@code args}; waits for the ready line (or the exit). */
    static ServerProcess start(Path dir, String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of("--dir", dir.toString()));
        all.addAll(List.of(args));
        return startWith(all.toArray(String[]::new));
    }

    /** Starts {@code serve redis --port P} plus {@code args} (which choose the database); waits for the ready line (or the exit). */
    static ServerProcess startWith(String... args) throws Exception {
        int port = freePort();
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-cp", System.getProperty("java.class.path"), "io.strata.cli.StrataCli",
                "serve", "redis", "--port", Integer.toString(port)));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        ServerProcess s = new ServerProcess(p, port);
        s.ready.get(60, TimeUnit.SECONDS);
        return s;
    }

    boolean isReady() {
        return ready.getNow(null) != null;
    }

    String printed() {
        synchronized (output) {
            return String.join("\n", output);
        }
    }

    /** {@code kill -9}. */
    void crash() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }
}
