/**
 * The commit pipeline: one sequencer thread that takes commit requests in batches, resolves
 * them against the conflict history, assigns the batch a version, applies the mutations to
 * the versioned store (evaluating atomic operations and versionstamps), makes the batch
 * visible, and completes the requests. Depends on {@code store}, {@code resolver},
 * {@code mutation}, {@code version}, {@code watch}, {@code error}, {@code util}.
 */
package io.strata.engine.commit;
