/**
 * Running benchmark clients: the timed closed loop every runner shares, the JVM clocks it reads,
 * and thread helpers. strata-bench-records uses this package on strata-fdb's class path, so it
 * depends on the JDK and HdrHistogram only: no fdb-java, engine or layer class.
 */
package io.strata.bench.run;
