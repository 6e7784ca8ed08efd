/**
 * Watches: futures that complete when a key's value changes. Owned by the commit sequencer.
 */
package io.strata.engine.watch;
