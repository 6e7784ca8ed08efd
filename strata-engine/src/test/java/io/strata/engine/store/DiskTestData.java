package io.strata.engine.store;

import static org.assertj.core.api.Assertions.assertThat;

/** Test data put on a disk store's disk, as the store's own window and catch-up put it there. */
final class DiskTestData {
    private DiskTestData() {
    }

    /**
     * Prunes everything below {@code version + 1} out of the window, waits (at most 60 s) until
     * the catch-up has written it, drops it from memory and makes the disk durable, so that it
     * sits in table files, whose statistics size estimates read.
     */
    static void moveWindowToDisk(VersionedStore store, long version) throws Exception {
        store.pruneBefore(version + 1);
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!store.caughtUp() && System.nanoTime() < deadline) {
            Thread.sleep(5);
            store.dropWrittenToDisk();
        }
        assertThat(store.caughtUp()).isTrue();
        store.dropWrittenToDisk();
        store.makeDiskDurable();
    }
}
