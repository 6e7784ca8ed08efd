package io.strata.bench.scenario;

import io.strata.bench.data.Dataset;
import io.strata.bench.peer.KvSession;

import java.util.Locale;
import java.util.SplittableRandom;

/** The transactions a scenario client runs, one per operation, on uniformly random existing keys. */
public enum Workload {
    /** A read-only transaction reading one key. */
    READ("point reads/s") {
        @Override
        int run(KvSession session, Dataset data, SplittableRandom random) {
            session.read(data.key(random.nextInt(data.size())));
            session.endRead();
            return 0;
        }
    },
    /** A write transaction: set one key to a 100-byte value, commit, wait. */
    WRITE("write commits/s") {
        @Override
        int run(KvSession session, Dataset data, SplittableRandom random) {
            session.write(data.key(random.nextInt(data.size())), data.value(random.nextInt(data.size())));
            return 0;
        }
    },
    /** 90% {@link #READ}, 10% a read-write transaction (read one key, set it, commit). */
    MIXED("mixed 90/10 txn/s") {
        @Override
        int run(KvSession session, Dataset data, SplittableRandom random) {
            if (random.nextInt(10) != 0) {
                return READ.run(session, data, random);
            }
            byte[] key = data.key(random.nextInt(data.size()));
            return session.readModifyWrite(key, data.value(random.nextInt(data.size()))) - 1;
        }
    };

    private final String title;

    Workload(String title) {
        this.title = title;
    }

    /** Runs one operation; returns the number of conflict retries it took. */
    abstract int run(KvSession session, Dataset data, SplittableRandom random);

    /** The name used on the command line and in CSV: {@code read}, {@code write}, {@code mixed}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** What the throughput of this workload counts, for table headings. */
    public String title() {
        return title;
    }

    public static Workload of(String id) {
        for (Workload w : values()) {
            if (w.id().equals(id)) {
                return w;
            }
        }
        throw new IllegalArgumentException("unknown workload: " + id + " (read, write, mixed)");
    }
}
