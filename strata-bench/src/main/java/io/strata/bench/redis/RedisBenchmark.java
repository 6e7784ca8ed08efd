package io.strata.bench.redis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs Redis's own {@code redis-benchmark} against a server and reads its CSV: requests per
 * second and latency percentiles per test, as redis-benchmark measures them.
 */
public final class RedisBenchmark {
    /** One row of redis-benchmark's CSV. */
    public record Result(String test, double requestsPerSecond, double p50Millis, double p99Millis) {
    }

    private RedisBenchmark() {
    }

    /**
     * {@code redis-benchmark -h 127.0.0.1 -p port -c clients -n requests -P pipeline -t tests --csv}
     * (keys as redis-benchmark picks them: one key per test unless {@code keyspace > 0}, then
     * {@code -r keyspace}).
     */
    public static Map<String, Result> run(int port, int clients, int requests, int pipeline, List<String> tests, int keyspace)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("redis-benchmark", "-h", "127.0.0.1", "-p", Integer.toString(port),
                "-c", Integer.toString(clients), "-n", Integer.toString(requests), "-P", Integer.toString(pipeline),
                "-t", String.join(",", tests), "--csv"));
        if (keyspace > 0) {
            cmd.addAll(List.of("-r", Integer.toString(keyspace)));
        }
        Process p = new ProcessBuilder(cmd).redirectErrorStream(false).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IOException("redis-benchmark failed: " + err.trim());
        }
        Map<String, Result> results = new LinkedHashMap<>();
        for (String line : out.split("\n")) {
            // "test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms","max_latency_ms"
            String[] f = line.replace("\"", "").split(",");
            if (f.length < 7 || f[0].equals("test")) {
                continue;
            }
            String test = f[0].toLowerCase(Locale.ROOT);
            // "MSET (10 keys)" and "LPUSH (needed to benchmark LPOP)" name the command first.
            test = test.split(" ")[0];
            results.putIfAbsent(test, new Result(test, Double.parseDouble(f[1]), Double.parseDouble(f[4]), Double.parseDouble(f[6])));
        }
        return results;
    }
}
