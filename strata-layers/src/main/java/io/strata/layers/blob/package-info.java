/**
 * Values of any size stored in chunks ("blobs"), FoundationDB's blob-layer pattern: edited in
 * the caller's transaction when they fit one, written and read over many transactions when
 * they do not, and then replaced atomically (staged under a fresh id, switched in by one small
 * transaction). Depends on fdb-java and {@code io.strata.layers.allocator} only.
 *
 * <p>{@link io.strata.layers.blob.BlobStore} is the API and states the design: key layout,
 * concurrency argument, 1021, cleanup rule, limits, and the measurement behind the chunk size.
 * {@link io.strata.layers.blob.BlobWriter} and {@link io.strata.layers.blob.BlobReader} are
 * its streams, {@link io.strata.layers.blob.BlobSettings} its settings. Package-private: the
 * keys ({@code BlobLayout}), the head and staging-record codecs ({@code BlobHead},
 * {@code StagingRecord}), chunk arithmetic ({@code Chunks}), reads and edits in one
 * transaction ({@code BlobReads}, {@code BlobEdits}), reads across transactions
 * ({@code SegmentReads}, {@code SpanningReads}), staging ({@code Staging}), cleanup
 * ({@code StagingCleanup}) and the per-transaction budget ({@code TransactionBudget}).
 *
 * <p>Key layout, under the subspace each {@code BlobStore} is given:
 * <pre>
 * (0) ++ name        -&gt; head: id 8 | length 8 | revision 8 | chunk size 4 (big-endian)
 * (1, id, index)     -&gt; chunk index of the value under id
 * (2, id)            -&gt; staging record: state 1 | lease end version 8 | name
 * (3) ...            -&gt; the id allocator (HighContentionAllocator)
 * </pre>
 */
package io.strata.layers.blob;
