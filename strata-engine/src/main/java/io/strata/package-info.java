/**
 * Strata's public entry point: {@link io.strata.Strata} opens databases that implement
 * fdb-java's {@code com.apple.foundationdb.Database}. Fault and latency settings live in
 * {@code io.strata.engine.fault}.
 */
package io.strata;
