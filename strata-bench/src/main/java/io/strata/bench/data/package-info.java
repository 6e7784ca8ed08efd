/** Benchmark data: fixed-size keys and values, generated from a seed. */
package io.strata.bench.data;
