package io.strata.bench.run;

import java.time.Duration;

/** Sleeping and joining for the client threads of a timed run; an interrupt ends the run. */
public final class RunThreads {
    private RunThreads() {}

    public static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Waits for {@code t}; fails naming {@code what} if it is still running after {@code timeoutMillis}. */
    public static void join(Thread t, long timeoutMillis, String what) {
        try {
            t.join(timeoutMillis);
            if (t.isAlive()) {
                throw new IllegalStateException(what + " did not finish within " + timeoutMillis / 1000 + " s of the end of the run");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
