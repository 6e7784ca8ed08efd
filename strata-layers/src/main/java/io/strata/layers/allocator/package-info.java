/**
 * Allocators of unique prefixes: the naive single counter (for comparison) and the High
 * Contention Allocator in FoundationDB's key format. Depends on fdb-java only.
 */
package io.strata.layers.allocator;
