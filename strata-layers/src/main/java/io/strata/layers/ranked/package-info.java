/**
 * Order statistics over an ordered set of byte strings: {@link io.strata.layers.ranked.RankedSet},
 * a counted skip list kept in keys, answers the rank of an element, the element at a rank and
 * the number of elements in a key range in O(log n) reads, for sorted sets' {@code ZRANK},
 * {@code ZRANGE} by index and {@code ZCOUNT}. Depends on fdb-java only.
 *
 * <p>Key layout, under the subspace each set is given ({@code P} its raw prefix; the format and
 * the concurrency argument are in the class notes):
 * <pre>
 * P ++ 0x14 ++ e           -&gt; empty    e is in the set (level 0)
 * P ++ 0x15 ++ k           -&gt; count    head of level k, 1 &lt;= k &lt; levels (8 bytes little-endian, ADD)
 * P ++ 0x15 ++ k ++ e      -&gt; count    e's tower reaches level k: elements from e to the next level-k key
 * </pre>
 * Internals, one concern each: {@code RankedSetLayout} (keys and counts), {@code TowerHeights}
 * (the hash that places towers), {@code LevelNeighbours} (the snapshot reads of a change and
 * their conflict ranges), {@code ElementChanges} (add and remove), {@code RankQueries} (the
 * descents), {@code ElementIterable} and {@code DeferredIterable} (scans).
 */
package io.strata.layers.ranked;
