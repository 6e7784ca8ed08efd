/**
 * String interning: {@link io.strata.layers.interning.StringInterner} turns strings into
 * uint64 IDs and back, with IDs from a pluggable {@link io.strata.layers.interning.IdAllocator}
 * (random sharded sequences, the High Contention Allocator, one counter) or from
 * versionstamps. Depends on fdb-java and {@code io.strata.layers.allocator} only.
 *
 * <p>Key tree under an interner's subspace {@code S} (raw bytes after a one-element tuple tag):
 * <pre>
 * S
 * ├── (0) ++ string bytes      -&gt; ID (8 bytes big-endian) | stamp (12 bytes, versionstamp IDs)
 * ├── (1) ++ firstId (8 bytes BE) -&gt; reverse block: strings of IDs firstId, firstId + 1, ... (varint length, bytes)
 * ├── (2)                      the allocator's subspace
 * │     ├── sequence (8 bytes BE) -&gt; last counter value, 8 bytes BE   (sharded / single counter)
 * │     └── (0, start), (1, candidate)                                  (HCA)
 * └── (3) ++ stamp (12 bytes)  -&gt; string bytes                          (versionstamp IDs)
 * </pre>
 */
package io.strata.layers.interning;
