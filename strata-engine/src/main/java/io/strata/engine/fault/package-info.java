/**
 * Fault injection and latency: how the engine pretends to be a networked, imperfect cluster,
 * configured when a database is opened. Depends on nothing.
 */
package io.strata.engine.fault;
