package io.strata.bench.run;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ClosedLoopTest {
    @Test
    void clientsRunAtTheRequestedPriority() {
        for (ClientPriority priority : ClientPriority.values()) {
            Set<Integer> seen = ConcurrentHashMap.newKeySet();
            ClosedLoop.Operation op = () -> {
                seen.add(Thread.currentThread().getPriority());
                Thread.sleep(1);
                return 0;
            };
            ClosedLoop.Result r = ClosedLoop.run(List.of(op, op), Duration.ZERO, Duration.ofMillis(50), "test-client", priority);
            assertThat(r.operations()).isPositive();
            assertThat(seen).as(priority.label()).containsExactly(priority.javaPriority());
        }
    }

    @Test
    void theDefaultPriorityIsNormal() {
        Set<Integer> seen = ConcurrentHashMap.newKeySet();
        ClosedLoop.run(List.of(() -> {
            seen.add(Thread.currentThread().getPriority());
            Thread.sleep(1);
            return 0;
        }), Duration.ZERO, Duration.ofMillis(20), "test-client");
        assertThat(seen).containsExactly(Thread.NORM_PRIORITY);
    }

    @Test
    void theHooksBracketTheMeasuredIntervalWhoseCpuAndJitTimeAreRead() {
        List<String> events = new CopyOnWriteArrayList<>();
        Set<String> names = ConcurrentHashMap.newKeySet();
        ClosedLoop.Operation busy = () -> {
            names.add(Thread.currentThread().getName());
            long end = System.nanoTime() + 1_000_000;
            while (System.nanoTime() < end) {
                Thread.onSpinWait();
            }
            return 0;
        };
        ClosedLoop.Result r = ClosedLoop.run(List.of(busy, busy), Duration.ZERO, Duration.ofMillis(50), "test-client",
                ClientPriority.NORMAL, new ClosedLoop.Measured() {
                    @Override
                    public void started() {
                        events.add("started");
                    }

                    @Override
                    public void stopped() {
                        events.add("stopped");
                    }
                });
        assertThat(events).containsExactly("started", "stopped");
        assertThat(names).containsExactlyInAnyOrder("test-client-0", "test-client-1");
        assertThat(r.operations()).isPositive();
        assertThat(r.cpuSeconds()).as("two clients spinning for 50 ms").isPositive();
        assertThat(r.cpuMicrosPerOperation()).isPositive();
        assertThat(r.jitMillis()).isNotNegative();
        assertThat(r.p99Micros()).isGreaterThanOrEqualTo(r.p50Micros()).isPositive();
    }

    @Test
    void prioritiesParseByNameInAnyCase() {
        assertThat(ClientPriority.parse("low")).isEqualTo(ClientPriority.LOW);
        assertThat(ClientPriority.parse("NORMAL")).isEqualTo(ClientPriority.NORMAL);
        assertThat(ClientPriority.LOW.label()).isEqualTo("low");
        assertThat(ClientPriority.LOW.javaPriority()).isEqualTo(Thread.MIN_PRIORITY);
        assertThatThrownBy(() -> ClientPriority.parse("high")).hasMessageContaining("unknown client priority: high");
    }

    @Test
    void prioritiesAreEffectiveOnlyWithThreadPriorityPolicyOne() throws Exception {
        assertThat(effectiveInAJvmWith()).isEqualTo("false");
        assertThat(effectiveInAJvmWith("-XX:ThreadPriorityPolicy=0")).isEqualTo("false");
        assertThat(effectiveInAJvmWith("-XX:ThreadPriorityPolicy=1")).isEqualTo("true");
    }

    /** Prints {@link ClientPriority#effective()}; run in a JVM of its own. */
    public static final class PrintEffective {
        public static void main(String[] args) {
            System.out.print("effective=" + ClientPriority.effective());
        }
    }

    private static String effectiveInAJvmWith(String... options) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(options));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), PrintEffective.class.getName()));
        Process p = new ProcessBuilder(command).redirectErrorStream(false).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isZero();
        // Not run as root, HotSpot prints a warning about the option first (on stdout).
        Matcher m = Pattern.compile("effective=(true|false)").matcher(out);
        assertThat(m.find()).as(out).isTrue();
        return m.group(1);
    }
}
