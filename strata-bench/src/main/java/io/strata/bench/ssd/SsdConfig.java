package io.strata.bench.ssd;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What {@code strata bench ssd} runs.
 *
 * @param dataBytes     keys and values to load, per engine
 * @param valueBytes    bytes per value (keys are 16 bytes)
 * @param cacheBytes    block cache of both engines (Strata's {@code diskCacheBytes})
 * @param loaders       loader threads, each committing batches of {@code batchKeys} keys
 * @param clients       reading threads
 * @param warmup        not measured, before each read phase
 * @param measure       each read phase
 * @param engines       of {@link SsdTarget#NAMES}, loaded and read in that order
 * @param phases        of {@link #PHASES}
 * @param killAtBytes   the recovery phase kills its loader once this much was acknowledged
 * @param verifyKeys    keys read back after reopen and after recovery
 * @param windowKeys    keys of the in-window phase's working set
 * @param directory     where each engine's directory is made (and deleted afterwards)
 */
public record SsdConfig(long dataBytes, int valueBytes, long cacheBytes, int loaders, int batchKeys, int clients,
                        Duration warmup, Duration measure, List<String> engines, List<String> phases, long killAtBytes,
                        int verifyKeys, int windowKeys, Path directory) {
    /** {@code load}: load, close, reopen, verify, point reads, scans; {@code recovery}; {@code window}. */
    public static final List<String> PHASES = List.of("load", "recovery", "window");

    public SsdConfig {
        engines = List.copyOf(engines);
        phases = List.copyOf(phases);
    }
}
