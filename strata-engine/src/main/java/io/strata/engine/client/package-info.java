/**
 * The client side: fdb-java's {@code Database} and {@code Transaction} on the engine —
 * read-your-writes, conflict ranges, options, retries, watches, range iteration, and the
 * special key space {@code \xff\xff/…} ({@code SpecialKeySpace}, {@code SpecialKeyModules}) with
 * the computed system range {@code \xff/keyServers/} ({@code VirtualSystemKeys}), and how the
 * futures handed out complete ({@link io.strata.engine.client.Completion},
 * {@code MarshalledFuture}). Everything here except {@link io.strata.engine.client.EngineDatabase},
 * {@link io.strata.engine.client.Connection} and {@link io.strata.engine.client.Completion}
 * is package-private; users see fdb-java's interfaces only.
 */
package io.strata.engine.client;
