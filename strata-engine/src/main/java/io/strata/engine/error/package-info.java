/**
 * FoundationDB's error codes and retry predicates, in Java, so nothing reaches the native client.
 * Depends on fdb-java's {@code FDBException} only.
 */
package io.strata.engine.error;
