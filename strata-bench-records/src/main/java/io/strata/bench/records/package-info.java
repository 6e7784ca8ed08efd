/**
 * {@code strata bench records}: Apple's Record Layer on Strata, measured. Built on strata-fdb
 * (the Record Layer's {@code com.apple.foundationdb} classes come from it), so this package
 * must never share a class path with modules built on the real fdb-java; strata-cli runs it
 * in a child JVM.
 */
package io.strata.bench.records;
