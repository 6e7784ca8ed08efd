package io.strata.bench.ssd;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The loading process {@link SsdRecovery} kills: opens an engine on a directory and loads into
 * it as {@link SsdLoad} does, printing {@code acked N0 N1 …} (batches acknowledged per loader)
 * every 50 ms, each line only after those batches were acknowledged, so the last line its
 * parent read before killing it names batches that must survive.
 *
 * <p>Arguments: engine, directory, keys, value bytes, loaders, keys per batch, cache bytes.
 */
public final class SsdLoadChild {
    private SsdLoadChild() {}

    public static void main(String[] args) throws Exception {
        String engine = args[0];
        Path directory = Path.of(args[1]);
        SsdData data = new SsdData(Long.parseLong(args[2]), Integer.parseInt(args[3]));
        int loaders = Integer.parseInt(args[4]);
        int batchKeys = Integer.parseInt(args[5]);
        long cacheBytes = Long.parseLong(args[6]);
        try (SsdTarget target = SsdTarget.open(engine, directory, cacheBytes)) {
            SsdLoad load = new SsdLoad(target, data, loaders, batchKeys);
            Thread reporter = new Thread(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    StringBuilder line = new StringBuilder("acked");
                    for (int t = 0; t < loaders; t++) {
                        line.append(' ').append(load.acked(t));
                    }
                    System.out.println(line);
                    System.out.flush();
                    try {
                        TimeUnit.MILLISECONDS.sleep(50);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "ssd-progress");
            reporter.setDaemon(true);
            System.out.println("opened");
            System.out.flush();
            reporter.start();
            load.run();
            reporter.interrupt();
            System.out.println("done");
            System.out.flush();
        }
    }
}
