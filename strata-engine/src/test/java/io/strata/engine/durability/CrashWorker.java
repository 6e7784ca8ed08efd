package io.strata.engine.durability;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;

import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The process {@link CrashRecoveryTest} kills: commits under concurrent load until it is
 * killed, printing one line per acknowledged commit ({@code ack <thread> <seq> <versionstamp hex>})
 * only after {@code commit()} returned. Arguments: directory, threads, run number.
 *
 * <p>Each transaction, atomically: adds 1 to the counter {@code ("count")}; sets its marker
 * {@code ("done", run, thread, seq)}; moves a random amount between accounts {@code ("acct", 0)}
 * and {@code ("acct", 1)} (read-modify-write, so their sum stays {@link #TOTAL}); and writes
 * a versionstamped key {@code ("vs", stamp)}.
 */
public final class CrashWorker {
    static final long TOTAL = 1_000_000;

    private CrashWorker() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int threads = Integer.parseInt(args[1]);
        long run = Long.parseLong(args[2]);
        PrintStream out = new PrintStream(System.out, false);
        // Small checkpoint interval: kills also land while checkpoints are written and logs deleted.
        Strata.Builder builder = Strata.builder().checkpointEveryLogBytes(64 << 10);
        if (args.length > 3 && args[3].equals("ssd")) {
            // On the disk engine, versions run 20 times faster than time: the 5-second window is
            // a quarter of a second, so writes reach the disk store, leave memory and let the log
            // be trimmed while the kill can land.
            long start = System.nanoTime();
            builder.storage(io.strata.Storage.SSD).nanoTime(() -> start + (System.nanoTime() - start) * 20);
        }
        Database db = builder.open(dir);
        db.run(tr -> {
            if (tr.get(Tuple.from("acct", 0).pack()).join() == null) {
                tr.set(Tuple.from("acct", 0).pack(), le(TOTAL));
                tr.set(Tuple.from("acct", 1).pack(), le(0));
            }
            return null;
        });
        out.println("ready");
        out.flush();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            Thread th = new Thread(() -> {
                for (long seq = 0; ; seq++) {
                    long s = seq;
                    Transaction tr = db.createTransaction();
                    try {
                        while (true) {
                            try {
                                byte[] stamp = commitOne(tr, run, thread, s);
                                synchronized (out) {
                                    out.println("ack " + thread + " " + s + " " + HexFormat.of().formatHex(stamp));
                                    out.flush();
                                }
                                break;
                            } catch (RuntimeException e) {
                                tr = tr.onError(e).join();
                            }
                        }
                    } finally {
                        tr.close();
                    }
                }
            });
            th.setDaemon(false);
            th.start();
        }
    }

    private static byte[] commitOne(Transaction tr, long run, int thread, long seq) {
        tr.mutate(MutationType.ADD, Tuple.from("count").pack(), le(1));
        tr.set(Tuple.from("done", run, thread, seq).pack(), new byte[0]);
        byte[] a0 = Tuple.from("acct", 0).pack();
        byte[] a1 = Tuple.from("acct", 1).pack();
        long b0 = get(tr.get(a0).join());
        long b1 = get(tr.get(a1).join());
        long move = ThreadLocalRandom.current().nextLong(-100, 101);
        if (b0 - move >= 0 && b1 + move >= 0) {
            tr.set(a0, le(b0 - move));
            tr.set(a1, le(b1 + move));
        }
        // ("vs", <incomplete versionstamp>) packed by hand: fdb-java's packWithVersionstamp needs the native client.
        byte[] prefix = Tuple.from("vs").pack();
        ByteBuffer key = ByteBuffer.allocate(prefix.length + 1 + 12 + 4).order(ByteOrder.BIG_ENDIAN);
        key.put(prefix).put((byte) 0x33);
        int offset = key.position();
        key.put(new byte[10]).putShort((short) 0);
        key.order(ByteOrder.LITTLE_ENDIAN).putInt(offset);
        tr.mutate(MutationType.SET_VERSIONSTAMPED_KEY, key.array(), new byte[0]);
        java.util.concurrent.CompletableFuture<byte[]> stamp = tr.getVersionstamp();
        tr.commit().join();
        return stamp.join();
    }

    static byte[] le(long v) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
    }

    static long get(byte[] v) {
        return v == null ? 0 : ByteBuffer.wrap(v).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }
}
