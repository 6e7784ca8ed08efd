/**
 * Apple's Record Layer on Strata, as a user would write it: {@link io.strata.examples.records.Shop}
 * (the schema from {@code shop.proto}, its indexes and key space) and
 * {@link io.strata.examples.records.RecordLayerExample} (a program that opens the database the
 * Record Layer's way and queries through the indexes). Depends only on the Record Layer and
 * the {@code com.apple.foundationdb} API, which strata-fdb provides.
 */
package io.strata.examples.records;
