/** JMH states shared by the engine benchmarks: the engine under test, loaded, and a client session. */
package io.strata.bench.jmh;
