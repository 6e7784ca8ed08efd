package io.strata.engine.client;

import io.strata.engine.error.FdbError;
import io.strata.engine.watch.WatchRegistry;

/**
 * Database options (see {@code fdb.options}): defaults for new transactions and the watch
 * limit. Set from any thread; read when a transaction is created.
 */
final class DatabaseDefaults {
    private final WatchRegistry watches;

    volatile long timeoutMillis;
    volatile long retryLimit = -1;
    volatile long maxRetryDelayMillis = TxOptions.DEFAULT_MAX_RETRY_DELAY_MILLIS;
    volatile long sizeLimit = TxOptions.DEFAULT_SIZE_LIMIT;
    volatile int snapshotRywEnabled = 1;
    volatile boolean usedDuringCommitProtectionDisabled;

    DatabaseDefaults(WatchRegistry watches) {
        this.watches = watches;
    }

    void set(int code, byte[] param) {
        // DatabaseContext::setOption (NativeAPI) calls validateOptionValueNotPresent for
        // snapshot_ryw_enable (26), snapshot_ryw_disable (27) and use_config_database (800) only;
        // the transaction_* defaults are stored as given, unchecked at this point.
        if (param != null && (code == 26 || code == 27 || code == 800)) {
            throw FdbError.INVALID_OPTION_VALUE.exception("database option " + code + " takes no value");
        }
        switch (code) {
            case 20 -> watches.setMaxWatches((int) TxOptions.longParam(param, 0, 1_000_000));
            case 26 -> snapshotRywEnabled++;
            case 27 -> snapshotRywEnabled--;
            case 500 -> timeoutMillis = TxOptions.longParam(param, 0, Integer.MAX_VALUE);
            case 501 -> retryLimit = TxOptions.longParam(param, -1, Integer.MAX_VALUE);
            case 502 -> maxRetryDelayMillis = TxOptions.longParam(param, 0, Integer.MAX_VALUE);
            case 503 -> sizeLimit = TxOptions.longParam(param, 32, TxOptions.DEFAULT_SIZE_LIMIT);
            case 701 -> usedDuringCommitProtectionDisabled = true;
            // Accepted, no effect here: location cache (10), machine and datacenter ids (21, 22),
            // transaction logging (405), causal read risk (504), port in address (505), idempotency
            // (506), bypass unreadable (700), conflicting keys (702), configuration database (800),
            // test options (900).
            case 10, 21, 22, 405, 504, 505, 506, 700, 702, 800, 900 -> {
            }
            default -> throw FdbError.INVALID_OPTION.exception("unknown database option " + code);
        }
    }
}
