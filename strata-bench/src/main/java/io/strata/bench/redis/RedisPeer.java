package io.strata.bench.redis;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real Redis started for a benchmark run: Debian's {@code redis-server}, in a temporary
 * directory, on a port of its own, stopped (and its directory removed) by {@link #close}.
 */
public final class RedisPeer implements AutoCloseable {
    /** How the peer persists writes. */
    public enum Mode {
        /** {@code appendonly yes}, {@code appendfsync always}: a write is on disk before its reply, like Strata. */
        DURABLE("redis-always"),
        /** Redis's defaults (no AOF; RDB snapshots): a crash may lose the last writes. */
        DEFAULT("redis-default");

        public final String label;

        Mode(String label) {
            this.label = label;
        }
    }

    private final Process process;
    private final Path dir;
    private final int port;

    private RedisPeer(Process process, Path dir, int port) {
        this.process = process;
        this.dir = dir;
        this.port = port;
    }

    /** The missing programs among redis-server, redis-benchmark, redis-cli (empty when all are there). */
    public static List<String> missingPrograms() {
        List<String> missing = new ArrayList<>();
        for (String p : List.of("redis-server", "redis-benchmark", "redis-cli")) {
            if (!onPath(p)) {
                missing.add(p);
            }
        }
        return missing;
    }

    private static boolean onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String d : path.split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Path.of(d, program))) {
                return true;
            }
        }
        return false;
    }

    public static RedisPeer start(Mode mode, int port) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("strata-bench-redis-");
        List<String> cmd = new ArrayList<>(List.of("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--dir", dir.toString(), "--daemonize", "no", "--logfile", dir.resolve("redis.log").toString()));
        if (mode == Mode.DURABLE) {
            cmd.addAll(List.of("--appendonly", "yes", "--appendfsync", "always", "--save", ""));
        }
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("stdout.log").toFile()).start();
        RedisPeer peer = new RedisPeer(p, dir, port);
        peer.awaitListening();
        return peer;
    }

    private void awaitListening() throws InterruptedException, IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("redis-server exited at start; see " + dir.resolve("redis.log"));
            }
            try (Socket s = new Socket("127.0.0.1", port)) {
                return;
            } catch (IOException notYet) {
                Thread.sleep(50);
            }
        }
        throw new IOException("redis-server did not listen on " + port + " within 10 s");
    }

    /**
     * The CPU time the server process has used so far, user and system, in nanoseconds (as the
     * operating system counts it: on Linux in clock ticks, 10 ms); -1 where it is not told.
     */
    public long cpuNanos() {
        return process.toHandle().info().totalCpuDuration().map(java.time.Duration::toNanos).orElse(-1L);
    }

    public int port() {
        return port;
    }

    /** The server's version line, e.g. {@code 7.0.15}. */
    public static String version() {
        try {
            Process p = new ProcessBuilder("redis-server", "--version").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            p.waitFor();
            int v = out.indexOf("v=");
            return v < 0 ? out : out.substring(v + 2, out.indexOf(' ', v));
        } catch (IOException | InterruptedException e) {
            return "unknown";
        }
    }

    @Override
    public void close() throws IOException {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }
}
