/**
 * {@code strata bench stores}: the disk engine's store, RocksDB, measured against the other
 * well-kept embedded ordered stores (H2's MVStore, LMDB) through the engine's own
 * {@link io.strata.engine.store.DiskStore} interface. The adapters live here, not in the
 * engine: they exist for the measurement.
 */
package io.strata.bench.stores;
