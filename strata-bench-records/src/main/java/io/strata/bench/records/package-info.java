/**
 * {@code strata bench records}: Apple's Record Layer on Strata, measured. Built on strata-fdb
 * (the Record Layer's {@code com.apple.foundationdb} classes come from it), so this package
 * must never share a class path with the real fdb-java; strata-cli runs it in a child JVM. Of
 * strata-bench it uses only the closed loop ({@code io.strata.bench.run}) and the option
 * checks ({@code io.strata.bench.options}), which touch no database class.
 */
package io.strata.bench.records;
