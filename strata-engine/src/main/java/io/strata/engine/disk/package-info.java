/**
 * Disk stores for {@link io.strata.Storage#SSD}: implementations of
 * {@link io.strata.engine.store.DiskStore}. The store package decides what is written and
 * when; this package only knows how.
 */
package io.strata.engine.disk;
