/**
 * The server's data in FoundationDB keys: the key layout ({@code Keyspace}), each key's
 * metadata record ({@code KeyMeta}), and the bookkeeping every change does
 * ({@code KeyStore}: expiry index, change stamps for WATCH, per-database key counts), and
 * the keyspace notifications commands publish ({@code KeyspaceEvents}).
 * Written only against fdb-java's interfaces and Strata's layers.
 */
package io.strata.redis.keyspace;
