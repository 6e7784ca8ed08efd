/**
 * Versions: the clock that makes commit versions advance about one million per second.
 */
package io.strata.engine.version;
