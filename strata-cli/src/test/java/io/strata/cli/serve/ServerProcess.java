package io.strata.cli.serve;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
        ServerProcess s = launchWith(args);
        s.ready.get(60, TimeUnit.SECONDS);
        return s;
    }

    /** Starts {@code serve redis --port P --dir dir} without waiting: for a test that kills it while it recovers. */
    static ServerProcess launch(Path dir) throws IOException {
        return launchWith("--dir", dir.toString());
    }

    private static ServerProcess launchWith(String... args) throws IOException {
        int port = freePort();
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-cp", System.getProperty("java.class.path"), "io.strata.cli.StrataCli",
                "serve", "redis", "--port", Integer.toString(port)));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        return new ServerProcess(p, port);
    }

    boolean isReady() {
        return ready.getNow(null) != null;
    }

    String printed() {
        synchronized (output) {
            return String.join("\n", output);
        }
    }

    /**
     * The Linux task id of the server's thread whose name starts with {@code name}, or -1
     * when there is no {@code /proc} or no such thread: a crash test watches a background
     * thread ({@link #running}) to kill the server while it works. The kernel keeps 15
     * characters of a thread's name.
     */
    long threadId(String name) {
        String comm = name.length() > 15 ? name.substring(0, 15) : name;
        Path tasks = Path.of("/proc", Long.toString(process.pid()), "task");
        try (var all = Files.list(tasks)) {
            for (Path task : (Iterable<Path>) all::iterator) {
                if (Files.readString(task.resolve("comm")).strip().equals(comm)) {
                    return Long.parseLong(task.getFileName().toString());
                }
            }
        } catch (IOException | RuntimeException gone) {
            // no /proc, or a thread ended while listed
        }
        return -1;
    }

    /** Whether the server's thread {@code tid} is running or runnable now ({@code /proc/<pid>/task/<tid>/stat}). */
    boolean running(long tid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "task", Long.toString(tid), "stat"));
            // "tid (comm) S ...": the state follows the last parenthesis.
            return stat.charAt(stat.lastIndexOf(')') + 2) == 'R';
        } catch (IOException | RuntimeException gone) {
            return false;
        }
    }

    /**
     * Bytes the server has read through read system calls ({@code rchar} of
     * {@code /proc/<pid>/io}): how far a recovery has read its log. -1 without {@code /proc}.
     */
    long bytesRead() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "io"))) {
                if (line.startsWith("rchar:")) {
                    return Long.parseLong(line.substring("rchar:".length()).trim());
                }
            }
        } catch (IOException | RuntimeException gone) {
            // no /proc, or the process ended
        }
        return -1;
    }

    /** Whether the server has one of {@code files} open (its descriptors in {@code /proc/<pid>/fd}). */
    boolean hasOpen(java.util.Set<Path> files) {
        try (var fds = Files.list(Path.of("/proc", Long.toString(process.pid()), "fd"))) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                try {
                    if (files.contains(Files.readSymbolicLink(fd))) {
                        return true;
                    }
                } catch (IOException closed) {
                    // closed while listed
                }
            }
        } catch (IOException | RuntimeException gone) {
            // no /proc, or the process ended
        }
        return false;
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
