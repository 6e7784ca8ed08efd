/**
 * The resolver: decides which transactions of a commit batch conflict.
 *
 * <p>A transaction commits only if none of its read conflict ranges was written by a transaction
 * that committed after the transaction's read version. The resolver keeps the recent history of
 * committed write conflict ranges ({@link io.strata.engine.resolver.ConflictHistory}), checks each
 * transaction of a batch against it, and records the write conflict ranges of the transactions
 * that commit. History older than the MVCC window is forgotten; transactions whose read version
 * falls before the window are rejected as {@code transaction_too_old} before they are checked.
 *
 * <p>Everything in this package is owned by a single thread, the commit sequencer, and is not
 * thread-safe.
 */
package io.strata.engine.resolver;
