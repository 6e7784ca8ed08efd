package io.strata.examples.inventory;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDB;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The service's tests, run by surefire on strata-fdb instead of a FoundationDB cluster. */
class InventoryTest {
    private static Database db;

    @BeforeAll
    static void open() {
        // The production cluster file, as the code names it: strata.database (set in the pom)
        // puts it on Strata for the tests.
        db = FDB.selectAPIVersion(730).open("/etc/foundationdb/fdb.cluster");
    }

    @AfterAll
    static void close() {
        db.close();
    }

    @Test
    void theTestsRunOnStrataNotOnTheNativeClient() {
        String fdbClassSource = FDB.class.getProtectionDomain().getCodeSource().getLocation().toString();
        assertThat(fdbClassSource).contains("strata-fdb").doesNotContain("fdb-java-");
        byte[] connection = db.read(tr -> tr.get("\u00ff\u00ff/connection_string".getBytes(StandardCharsets.ISO_8859_1)).join());
        assertThat(new String(connection, StandardCharsets.UTF_8)).isEqualTo("strata:memory:tests");
    }

    @Test
    void concurrentReservationsNeverOversell() throws InterruptedException {
        Inventory inventory = new Inventory(db);
        inventory.restock("gizmo", 50);
        AtomicInteger granted = new AtomicInteger();
        List<Thread> buyers = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            Thread buyer = new Thread(() -> {
                for (int j = 0; j < 10; j++) {
                    if (inventory.reserve("gizmo", 1)) {
                        granted.incrementAndGet();
                    }
                }
            });
            buyer.start();
            buyers.add(buyer);
        }
        for (Thread buyer : buyers) {
            buyer.join();
        }
        assertThat(granted.get()).isEqualTo(50);
        assertThat(inventory.stock("gizmo")).isZero();
    }

    @Test
    void restocksAddUp() {
        Inventory inventory = new Inventory(db);
        inventory.restock("bolt", 3);
        inventory.restock("bolt", 4);
        assertThat(inventory.stock("bolt")).isEqualTo(7);
    }
}
