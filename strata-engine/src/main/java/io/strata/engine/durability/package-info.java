/**
 * Durability: the write-ahead log the sequencer appends each commit batch to before the
 * batch becomes visible, recovery from it, and the directory lock. Depends on {@code store},
 * {@code commit} (for {@code BatchLog} and {@code Mutation}), {@code version}, {@code util}.
 */
package io.strata.engine.durability;
