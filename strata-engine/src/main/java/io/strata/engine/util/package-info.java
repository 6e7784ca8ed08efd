/**
 * Small helpers shared by every engine package: key order and key arithmetic. Depends on nothing.
 */
package io.strata.engine.util;
