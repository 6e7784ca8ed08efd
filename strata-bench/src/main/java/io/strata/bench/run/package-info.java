/** Running benchmark clients: the timed closed loop every runner shares, and thread helpers. */
package io.strata.bench.run;
