/**
 * Pure byte-level rules for FoundationDB mutations that are resolved at commit time rather than by
 * the client: the atomic operations ({@link io.strata.engine.mutation.AtomicOps}) and versionstamp
 * substitution ({@link io.strata.engine.mutation.Versionstamps}).
 *
 * <p>Everything here is a side-effect-free function of byte arrays, so it can be tested exhaustively
 * on its own. The behaviour follows FoundationDB 7.3 (API version 730) byte for byte; each rule
 * cites the FoundationDB source it was checked against (mainly
 * {@code fdbclient/include/fdbclient/Atomic.h} and
 * {@code fdbclient/ReadYourWrites.actor.cpp} in the apple/foundationdb repository).
 */
package io.strata.engine.mutation;
