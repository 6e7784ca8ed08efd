/**
 * The versioned store: the MVCC window of every key. Written only by the commit pipeline,
 * read by transactions at their read version. Depends on {@code util} only.
 */
package io.strata.engine.store;
