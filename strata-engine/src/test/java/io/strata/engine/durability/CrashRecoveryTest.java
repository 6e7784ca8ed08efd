package io.strata.engine.durability;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.Range;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Kills a committing JVM with SIGKILL at random moments, reopens the database, and checks
 * that every acknowledged commit survived whole: {@link CrashWorker} documents the workload.
 * The seed is printed; {@code -Dstrata.seed=N} replays the kill delays.
 */
class CrashRecoveryTest {
    private static final int KILLS = 8;
    private static final int THREADS = 8;

    @TempDir
    Path dir;

    @Test
    void everyAcknowledgedCommitSurvivesSigkillWhole() throws Exception {
        killAndCheck("memory", 600);
    }

    /**
     * On the disk engine, with the worker's versions running 20 times faster than time, so
     * that kills land while the catch-up writes the disk store, while dropped versions leave
     * memory, and while the log is trimmed behind the disk store's durable point.
     */
    @Test
    void onTheDiskEngineEveryAcknowledgedCommitSurvivesSigkillWhole() throws Exception {
        killAndCheck("ssd", 1500);
        assertThat(java.nio.file.Files.readString(dir.resolve("STORAGE")).trim()).isEqualTo("ssd");
        try (Database db = Strata.open(dir)) {
            long diskVersion = ((io.strata.engine.client.EngineDatabase) db).engine().store().diskVersion();
            assertThat(diskVersion).as("the killed workers' disk store had durably caught up with part of the log").isPositive();
        }
    }

    private void killAndCheck(String storage, int maxDelayMillis) throws Exception {
        long seed = Long.getLong("strata.seed", System.nanoTime());
        System.out.println("CrashRecoveryTest seed " + seed + " (" + storage + ")");
        Random random = new Random(seed);
        List<String[]> acked = new ArrayList<>();
        byte[] lastStamp = new byte[10];
        for (int round = 0; round < KILLS; round++) {
            Process p = new ProcessBuilder(javaBin(), "-cp", System.getProperty("java.class.path"),
                    CrashWorker.class.getName(), dir.toString(), Integer.toString(THREADS), Integer.toString(round), storage)
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.US_ASCII));
            assertThat(out.readLine()).isEqualTo("ready");
            // Drain continuously, so the worker never blocks on a full pipe.
            List<String> lines = java.util.Collections.synchronizedList(new ArrayList<>());
            java.util.concurrent.CountDownLatch firstAck = new java.util.concurrent.CountDownLatch(1);
            Thread reader = new Thread(() -> {
                try {
                    String l;
                    while ((l = out.readLine()) != null) {
                        lines.add(l);
                        if (l.startsWith("ack ")) {
                            firstAck.countDown();
                        }
                    }
                } catch (java.io.IOException ignored) {
                    // the pipe ends with the process
                }
            });
            reader.start();
            // Kill at a random moment after the run is under way (its first acknowledgement),
            // so that every round kills a committing process however slow the machine is.
            assertThat(firstAck.await(60, TimeUnit.SECONDS)).as("round %d started committing", round).isTrue();
            Thread.sleep(random.nextInt(maxDelayMillis));
            // SIGKILL through the handle: Process.destroyForcibly would also close our end of the pipe.
            p.toHandle().destroyForcibly();
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            reader.join(30_000);
            int before = acked.size();
            for (String line : lines) {
                String[] f = line.split(" ");
                if (f.length == 4 && f[0].equals("ack") && f[3].length() == 20) {
                    // a line cut by the kill is not an acknowledgement we can parse
                    acked.add(new String[] {f[0], round + " " + f[1], f[2], f[3]});
                }
            }
            assertThat(acked.size()).as("round %d acknowledged commits", round).isGreaterThan(before);
            lastStamp = check(acked, lastStamp);
        }
    }

    @Test
    void anotherProcessCannotOpenADatabaseThatIsOpen() throws Exception {
        Process p = new ProcessBuilder(javaBin(), "-cp", System.getProperty("java.class.path"),
                CrashWorker.class.getName(), dir.toString(), "1", "0")
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.US_ASCII));
            assertThat(out.readLine()).isEqualTo("ready");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> Strata.open(dir))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("already open");
        } finally {
            p.toHandle().destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
        // The dead process's lock went with it.
        Strata.open(dir).close();
    }

    /** Reopens, checks every invariant, commits once more; returns that commit's versionstamp. */
    private byte[] check(List<String[]> acked, byte[] lastStamp) {
        try (Database db = Strata.open(dir)) {
            List<KeyValue> done = db.read(tr -> tr.getRange(Range.startsWith(Tuple.from("done").pack())).asList().join());
            long count = db.read(tr -> CrashWorker.get(tr.get(Tuple.from("count").pack()).join()));
            long a0 = db.read(tr -> CrashWorker.get(tr.get(Tuple.from("acct", 0).pack()).join()));
            long a1 = db.read(tr -> CrashWorker.get(tr.get(Tuple.from("acct", 1).pack()).join()));
            List<KeyValue> stamps = db.read(tr -> tr.getRange(Range.startsWith(Tuple.from("vs").pack())).asList().join());

            // Nothing acknowledged is lost.
            java.util.Set<String> present = new java.util.HashSet<>();
            for (KeyValue kv : done) {
                Tuple t = Tuple.fromBytes(kv.getKey());
                present.add(t.getLong(1) + " " + t.getLong(2) + " " + t.getLong(3));
            }
            for (String[] a : acked) {
                assertThat(present).as("acknowledged commit (run thread) %s, seq %s", a[1], a[2]).contains(a[1] + " " + a[2]);
            }
            // No transaction is partly applied: every one that left a marker also counted and stamped.
            assertThat(count).isEqualTo(done.size());
            assertThat(stamps).hasSize(done.size());
            assertThat(a0 + a1).isEqualTo(CrashWorker.TOTAL);
            // Versionstamps keep increasing across restarts.
            byte[] newest = new byte[10];
            for (String[] a : acked) {
                byte[] s = HexFormat.of().parseHex(a[3]);
                if (Arrays.compareUnsigned(s, newest) > 0) {
                    newest = s;
                }
            }
            assertThat(Arrays.compareUnsigned(newest, lastStamp)).isGreaterThanOrEqualTo(0);
            com.apple.foundationdb.Transaction tr = db.createTransaction();
            tr.mutate(MutationType.ADD, Tuple.from("probe").pack(), CrashWorker.le(1));
            java.util.concurrent.CompletableFuture<byte[]> stamp = tr.getVersionstamp();
            tr.commit().join();
            byte[] after = stamp.join();
            tr.close();
            assertThat(Arrays.compareUnsigned(after, newest)).as("versionstamp after restart").isGreaterThan(0);
            return after;
        }
    }

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
