/**
 * Allocators of unique prefixes: the naive single counter (for comparison) and the High
 * Contention Allocator in FoundationDB's key format. Depends on fdb-java only.
 *
 * <p>Key layouts, under the subspace each allocator is given:
 * <pre>
 * NaiveAllocator
 *   ("counter")     -&gt; last value handed out, 8 bytes big-endian
 * HighContentionAllocator (fdb-java's DirectoryLayer keeps one at
 *                          nodeSubspace[nodeSubspace.getKey()][b"hca"])
 *   (0, start)      -&gt; attempts in the window at start, 8 bytes little-endian (atomic ADD)
 *   (1, candidate)  -&gt; empty: candidate reserved
 * </pre>
 */
package io.strata.layers.allocator;
