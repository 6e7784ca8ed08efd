/**
 * HyperLogLog as Redis 7.0 stores it: a string value that starts with {@code HYLL}, holding
 * 16,384 six-bit registers either dense or run-length coded (sparse), and a cached
 * cardinality. {@code HyperLogLog} reads, edits and counts such a value byte for byte as Redis
 * does, so the strings PFADD and PFMERGE leave are the ones Redis would leave and GET, SET,
 * DUMP and RESTORE carry them between the two servers. Pure code: no storage, no I/O; the
 * PF* commands ({@code io.strata.redis.commands.HyperLogLogCommands}) read and write the value
 * as an ordinary string.
 */
package io.strata.redis.hll;
