package io.strata.engine.client;

import static io.strata.engine.client.ReadTests.b;
import static io.strata.engine.client.ReadTests.errorCode;
import static io.strata.engine.client.ReadTests.s;
import static org.assertj.core.api.Assertions.assertThat;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.Transaction;
import io.strata.Strata;
import io.strata.engine.cluster.Json;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code \xff\xff/status/json}: a well-formed document in FoundationDB's status schema whose
 * values are the engine's own — sizes of the data it holds, transactions it committed and
 * refused, the roles of its one process, latency probes it ran.
 */
class StatusJsonTest {
    private static final byte[] STATUS = b("\u00ff\u00ff/status/json");

    private Database db;

    @BeforeEach
    void open() {
        db = Strata.inMemory();
    }

    @AfterEach
    void close() {
        db.close();
    }

    private static Object status(Database db) {
        try (Transaction tr = db.createTransaction()) {
            return Json.parse(new String(tr.get(STATUS).join(), java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    private static double number(Object doc, String path) {
        Object v = Json.at(doc, path);
        assertThat(v).as(path).isInstanceOf(Double.class);
        return (Double) v;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> theProcess(Object doc) {
        Map<String, Object> processes = (Map<String, Object>) Json.at(doc, "cluster.processes");
        assertThat(processes).hasSize(1);
        return (Map<String, Object>) processes.values().iterator().next();
    }

    @SuppressWarnings("unchecked")
    private static List<String> roles(Object doc) {
        return ((List<Map<String, Object>>) theProcess(doc).get("roles")).stream().map(r -> (String) r.get("role")).toList();
    }

    @Test
    void theDatabaseIsAvailableAndHealthy() {
        Object doc = status(db);
        assertThat(Json.at(doc, "client.database_status.available")).isEqualTo(true);
        assertThat(Json.at(doc, "client.database_status.healthy")).isEqualTo(true);
        assertThat(Json.at(doc, "client.coordinators.quorum_reachable")).isEqualTo(true);
        assertThat(Json.at(doc, "client.messages")).isEqualTo(List.of());
        assertThat(Json.at(doc, "cluster.database_available")).isEqualTo(true);
        assertThat(Json.at(doc, "cluster.recovery_state.name")).isEqualTo("fully_recovered");
        assertThat(Json.at(doc, "cluster.data.state.healthy")).isEqualTo(true);
        assertThat(Json.at(doc, "cluster.data.state.name")).isEqualTo("healthy");
        assertThat(Json.at(doc, "cluster.messages")).isEqualTo(List.of());
        assertThat(Json.at(doc, "cluster.layers._valid")).isEqualTo(true);
        assertThat(number(doc, "cluster.generation")).isEqualTo(1);
    }

    @Test
    void theClusterFileAndConnectionStringAreTheSpecialKeysOnes() {
        Object doc = status(db);
        try (Transaction tr = db.createTransaction()) {
            assertThat(Json.at(doc, "client.cluster_file.path")).isEqualTo(s(tr.get(b("\u00ff\u00ff/cluster_file_path")).join()));
            assertThat(Json.at(doc, "cluster.connection_string")).isEqualTo(s(tr.get(b("\u00ff\u00ff/connection_string")).join()));
        }
        assertThat(Json.at(doc, "client.cluster_file.up_to_date")).isEqualTo(true);
    }

    @Test
    void aSingleProcessConfiguration() {
        // An in-memory database: no log, the memory engine (the ssd test hook's has both, see the tests below).
        org.junit.jupiter.api.Assumptions.assumeFalse("ssd".equals(System.getProperty(Strata.TEST_STORAGE_PROPERTY)));
        Object doc = status(db);
        assertThat(Json.at(doc, "cluster.configuration.redundancy_mode")).isEqualTo("single");
        assertThat(Json.at(doc, "cluster.configuration.storage_engine")).isEqualTo("memory");
        assertThat(number(doc, "cluster.configuration.storage_replicas")).isEqualTo(1);
        assertThat(number(doc, "cluster.fault_tolerance.max_zone_failures_without_losing_data")).isEqualTo(0);
        Map<String, Object> process = theProcess(doc);
        assertThat(process.get("address")).isEqualTo("127.0.0.1:0");
        assertThat(roles(doc)).containsExactly("master", "commit_proxy", "grv_proxy", "resolver", "storage");
        assertThat(Json.at(doc, "cluster.logs")).isEqualTo(List.of());
    }

    @Test
    void aDurableDatabaseAlsoHasItsLog(@TempDir Path dir) {
        try (Database durable = Strata.open(dir)) {
            Object doc = status(durable);
            assertThat(roles(doc)).contains("storage", "log");
            assertThat(number(doc, "cluster.configuration.logs")).isEqualTo(1);
            assertThat((List<?>) Json.at(doc, "cluster.logs")).hasSize(1);
            assertThat(Json.at(doc, "cluster.connection_string")).isEqualTo("strata:" + dir.toAbsolutePath().normalize());
        }
    }

    @Test
    void aDiskDatabaseNamesFoundationDbsRocksDbEngine(@TempDir Path dir) {
        try (Database disk = Strata.builder().storage(io.strata.Storage.SSD).open(dir)) {
            Object doc = status(disk);
            assertThat(Json.at(doc, "cluster.configuration.storage_engine")).isEqualTo("ssd-rocksdb-v1");
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> roles = (List<Map<String, Object>>) theProcess(doc).get("roles");
            Map<String, Object> storage = roles.stream().filter(r -> "storage".equals(r.get("role"))).findFirst().orElseThrow();
            assertThat(Json.at(storage, "storage_metadata.storage_engine")).isEqualTo("ssd-rocksdb-v1");
        }
    }

    @Test
    void dataSizesAreTheStoredBytes() {
        db.run(tr -> {
            tr.set(b("key1"), b("value1"));
            tr.set(b("key2"), b("v"));
            return null;
        });
        Object doc = status(db);
        assertThat(number(doc, "cluster.data.total_kv_size_bytes")).isEqualTo(10 + 5);
        assertThat(number(doc, "cluster.data.system_kv_size_bytes")).isEqualTo(0);
        assertThat(number(doc, "cluster.data.partitions_count")).isEqualTo(1);
        assertThat(number(doc, "cluster.data.moving_data.in_flight_bytes")).isEqualTo(0);
    }

    @Test
    void workloadCountsWhatTheEngineDid() {
        Object before = status(db);
        for (int i = 0; i < 3; i++) {
            int n = i;
            db.run(tr -> {
                tr.set(b("k" + n), b("v"));
                return null;
            });
        }
        try (Transaction loser = db.createTransaction()) {
            loser.get(b("k0")).join();
            loser.set(b("x"), b("1"));
            db.run(tr -> {
                tr.set(b("k0"), b("again"));
                return null;
            });
            assertThat(errorCode(loser.commit())).isEqualTo(1020);
        }
        Object after = status(db);
        // Each status request also commits its own commit probe, as FoundationDB's does.
        assertThat(number(after, "cluster.workload.transactions.committed.counter")
                - number(before, "cluster.workload.transactions.committed.counter")).isEqualTo(3 + 1 + 1);
        assertThat(number(after, "cluster.workload.transactions.conflicted.counter")
                - number(before, "cluster.workload.transactions.conflicted.counter")).isEqualTo(1);
        assertThat(number(after, "cluster.workload.operations.writes.counter")
                - number(before, "cluster.workload.operations.writes.counter")).isEqualTo(4);
        assertThat(number(after, "cluster.workload.transactions.started.counter"))
                .isGreaterThan(number(before, "cluster.workload.transactions.started.counter"));
        assertThat(number(after, "cluster.workload.operations.reads.counter"))
                .isGreaterThan(number(before, "cluster.workload.operations.reads.counter"));
        assertThat(number(after, "cluster.workload.transactions.committed.hz")).isPositive();
    }

    @Test
    void latencyProbesAreMeasured() {
        Object doc = status(db);
        for (String probe : new String[] {"immediate_priority_transaction_start_seconds", "transaction_start_seconds",
                "batch_priority_transaction_start_seconds", "read_seconds", "commit_seconds"}) {
            assertThat(number(doc, "cluster.latency_probe." + probe)).as(probe).isGreaterThanOrEqualTo(0);
        }
        assertThat(Json.at(doc, "cluster.qos.performance_limited_by.name")).isEqualTo("workload");
    }

    @Test
    void probesRetryThroughInjectedConflicts() {
        // The probes retry through onError as FoundationDB's probe loops do, so injected
        // not_committed faults slow them but leave the database available.
        try (Database faulty = Strata.builder()
                .faults(io.strata.engine.fault.FaultPolicy.seeded(7).notCommitted(0.5).build()).inMemory()) {
            Object doc = status(faulty);
            assertThat(Json.at(doc, "cluster.database_available")).isEqualTo(true);
            assertThat(number(doc, "cluster.latency_probe.commit_seconds")).isGreaterThanOrEqualTo(0);
        }
    }

    @Test
    void aStatusReadInFlightFailsWithTheCancel() {
        // SpecialKeySpace::checkRYWValid races a read that is not ready against the reset.
        try (Database slow = Strata.builder().latency(io.strata.engine.fault.LatencyModel.cluster()).inMemory();
             Transaction tr = slow.createTransaction()) {
            java.util.concurrent.CompletableFuture<byte[]> inFlight = tr.get(STATUS);
            tr.cancel();
            assertThat(Fdb.errorOf(inFlight)).isEqualTo(1025);
            assertThat(errorCode(tr.get(STATUS))).isEqualTo(1025);
            // A key answered at once is still answered.
            assertThat(tr.get(b("\u00ff\u00ff/connection_string")).join()).isNotNull();
        }
    }

    @Test
    void statusIsReadableInTheStatusModuleOnly() {
        try (Transaction tr = db.createTransaction()) {
            assertThat(tr.getRange(STATUS, b("\u00ff\u00ff/status/json\u0000")).asList().join()).hasSize(1);
            // \xff\xff/status/ lies before the module \xff\xff/status/json: a read from there into it crosses.
            assertThat(errorCode(tr.getRange(b("\u00ff\u00ff/status/"), b("\u00ff\u00ff/status0")).asList())).isEqualTo(2112);
            assertThat(errorCode(tr.get(b("\u00ff\u00ff/status/")))).isEqualTo(2113);
        }
    }
}
