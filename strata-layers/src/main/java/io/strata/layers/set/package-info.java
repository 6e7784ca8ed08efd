/**
 * Sets of unsigned 64-bit members stored as roaring containers, with set algebra that works
 * container by container. Depends on fdb-java's interfaces and RoaringBitmap only.
 *
 * <p>Key layout, under the subspace each {@link io.strata.layers.set.RoaringSet} is given:
 * <pre>
 * (0)                  -&gt; cardinality, 8 bytes little-endian, atomic ADD only
 * (1) ++ high48 (6 B)  -&gt; container of the low 16 bits (ContainerCodec: array, bitmap or runs)
 * </pre>
 * {@link io.strata.layers.set.SetAlgebra} reads several sets and returns a
 * {@code Roaring64Bitmap} or writes the result into another set. Mapping strings to members
 * is an interner's job: a {@link io.strata.layers.set.StringSet} is a set of strings kept as
 * the IDs of an {@link io.strata.layers.interning.StringInterner}. May depend on fdb-java,
 * RoaringBitmap and {@code io.strata.layers.interning}.
 */
package io.strata.layers.set;
