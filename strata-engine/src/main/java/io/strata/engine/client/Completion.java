package io.strata.engine.client;

/**
 * How the futures of a database's transactions complete.
 *
 * <p>The engine knows most answers at once: a read its own writes or its read cache answer, a
 * read of the store with no latency configured, a size estimate, a read-only commit. Whether
 * the future it hands back is then already complete is a choice, and code written for fdb-java
 * can tell the difference:
 * <ul>
 *   <li>{@link #IMMEDIATE} hands it back complete. The fastest; {@code Strata.inMemory()} and
 *       {@code Strata.open(dir)} do this unless asked otherwise.</li>
 *   <li>{@link #FDB_JAVA} completes every future the way fdb-java's {@code NativeFuture}
 *       does: the outcome is handed to the transaction's executor ({@code executor.execute}),
 *       which completes the future, so that the future is never complete when the call returns
 *       — unless the executor runs the task inside {@code execute} (for instance
 *       {@code Runnable::run}), where fdb-java's is complete too. What it costs and which calls
 *       it covers: {@link MarshalledFuture}. strata-fdb's databases do this, because
 *       fdb-java's users rely on it (a polling loop of {@code AsyncUtil.whileTrue} over reads
 *       only returns to its caller because the reads are not complete yet).</li>
 * </ul>
 */
public enum Completion {
    /** A future is complete as soon as the engine knows the answer, possibly before the call returns. */
    IMMEDIATE,
    /** As fdb-java: every future completes through the transaction's executor, never complete when returned. */
    FDB_JAVA
}
