/**
 * Ordering of a layer's asynchronous operations within one transaction. Depends on the JDK
 * only.
 */
package io.strata.layers.ordering;
