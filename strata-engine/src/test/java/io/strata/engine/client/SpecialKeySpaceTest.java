package io.strata.engine.client;

import static io.strata.engine.client.ReadTests.b;
import static io.strata.engine.client.ReadTests.errorCode;
import static io.strata.engine.client.ReadTests.keys;
import static io.strata.engine.client.ReadTests.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeySelector;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.StreamingMode;
import com.apple.foundationdb.Transaction;
import io.strata.Strata;
import io.strata.engine.Engine;
import io.strata.engine.cluster.Json;
import io.strata.engine.fault.FaultPolicy;
import io.strata.engine.fault.LatencyModel;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The special key space {@code \xff\xff/…} as FoundationDB 7.3's client serves it
 * ({@code fdbclient/SpecialKeySpace.actor.cpp}, RYW's {@code get}, {@code getRange}, {@code set},
 * {@code clear}): which calls reach it, in which transaction states, its module rules and
 * errors, key selectors inside a module, and the modules a single process answers.
 */
class SpecialKeySpaceTest {
    private static final String CONNECTION_STRING = "\u00ff\u00ff/connection_string";
    private static final String CLUSTER_FILE_PATH = "\u00ff\u00ff/cluster_file_path";
    private static final String CONFIGURATION = "\u00ff\u00ff/configuration/";

    private Database db;
    private Transaction tr;

    @BeforeEach
    void open() {
        db = Strata.inMemory();
        tr = db.createTransaction();
    }

    @AfterEach
    void close() {
        tr.close();
        db.close();
    }

    private String get(String key) {
        return s(tr.get(b(key)).join());
    }

    private List<KeyValue> range(String begin, String end) {
        return tr.getRange(b(begin), b(end)).asList().join();
    }

    // ---------------------------------------------------------------- connection

    @Test
    void connectionStringIsTheOneTheDatabaseWasOpenedWith() {
        assertThat(get(CONNECTION_STRING)).isEqualTo("strata:memory");
    }

    @Test
    void withoutAClusterFileTheClusterFilePathIsTheConnectionRecordsId() {
        // ClusterConnectionMemoryRecord::getLocation: the record's random UID, one per database handle.
        String path = get(CLUSTER_FILE_PATH);
        assertThat(path).matches("[0-9a-f]{32}");
        try (Transaction other = db.createTransaction()) {
            assertThat(s(other.get(b(CLUSTER_FILE_PATH)).join())).isEqualTo(path);
        }
        try (Database second = Strata.inMemory(); Transaction t = second.createTransaction()) {
            assertThat(s(t.get(b(CLUSTER_FILE_PATH)).join())).matches("[0-9a-f]{32}").isNotEqualTo(path);
        }
    }

    @Test
    void withAClusterFileTheClusterFilePathIsItsPath() {
        Engine engine = new Engine(FaultPolicy.none(), LatencyModel.none(), System::nanoTime);
        try (Database opened = EngineDatabase.owning(engine, ForkJoinPool.commonPool(),
                new Connection("test:abc@127.0.0.1:4500", "/etc/foundationdb/fdb.cluster"));
             Transaction t = opened.createTransaction()) {
            assertThat(s(t.get(b(CLUSTER_FILE_PATH)).join())).isEqualTo("/etc/foundationdb/fdb.cluster");
            assertThat(s(t.get(b(CONNECTION_STRING)).join())).isEqualTo("test:abc@127.0.0.1:4500");
        }
    }

    @Test
    void clusterIdIsAUidOfTheEngine() {
        String id = get("\u00ff\u00ff/cluster_id");
        assertThat(id).matches("[0-9a-f]{32}");
        try (Transaction other = db.createTransaction()) {
            assertThat(s(other.get(b("\u00ff\u00ff/cluster_id")).join())).isEqualTo(id);
        }
    }

    // ---------------------------------------------------------------- which calls, which states

    @Test
    void specialKeysNeedNoSystemKeyOption() {
        assertThat(get(CONNECTION_STRING)).isNotNull();
        assertThat(tr.snapshot().get(b(CONNECTION_STRING)).join()).isNotNull();
        assertThat(range(CONNECTION_STRING, CONNECTION_STRING + "\u0000")).hasSize(1);
    }

    @Test
    void specialKeysAreAnsweredAfterCommitAndAfterCancel() {
        tr.set(b("k"), b("v"));
        tr.commit().join();
        // Anything else is used_during_commit now; special keys are answered before that check.
        assertThat(errorCode(tr.get(b("k")))).isEqualTo(2017);
        assertThat(get(CONNECTION_STRING)).isEqualTo("strata:memory");
        try (Transaction cancelled = db.createTransaction()) {
            cancelled.cancel();
            assertThat(errorCode(cancelled.get(b("k")))).isEqualTo(1025);
            assertThat(s(cancelled.get(b(CONNECTION_STRING)).join())).isEqualTo("strata:memory");
        }
    }

    @Test
    void anEarlierVoidCallsErrorComesFirst() {
        tr.set(b("\u00ff/system"), b("v")); // key_outside_legal_range, deferred
        assertThat(errorCode(tr.get(b(CONNECTION_STRING)))).isEqualTo(2004);
        assertThat(errorCode(tr.getRange(b(CONNECTION_STRING), b(CONNECTION_STRING + "\u0000")).asList())).isEqualTo(2004);
    }

    @Test
    void aClosedTransactionThrowsAsFdbJavaDoes() {
        tr.close();
        assertThatThrownBy(() -> tr.get(b(CONNECTION_STRING))).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void specialReadsAddNoConflictRangeAndCountAsNoRead() {
        get(CONNECTION_STRING);
        range(CONFIGURATION, "\u00ff\u00ff/configuration0");
        assertThat(range("\u00ff\u00ff/transaction/read_conflict_range/", "\u00ff\u00ff/transaction/read_conflict_range0")).isEmpty();
        // RYW refuses read_your_writes_disable once a read was made; special reads do not count.
        tr.options().setReadYourWritesDisable();
    }

    @Test
    void callsOtherThanGetAndGetRangeTreatSpecialKeysAsOutsideTheKeySpace() {
        tr.options().setReadSystemKeys();
        // RYW getKey, watch, atomicOp and the conflict-range calls have no special-key path.
        assertThat(errorCode(tr.getKey(KeySelector.firstGreaterOrEqual(b(CONNECTION_STRING))))).isEqualTo(2004);
        assertThat(errorCode(tr.watch(b(CONNECTION_STRING)))).isEqualTo(2004);
        try (Transaction t = db.createTransaction()) {
            t.options().setAccessSystemKeys();
            t.mutate(MutationType.ADD, b(CONNECTION_STRING), new byte[8]);
            assertThat(errorCode(t.commit())).isEqualTo(2004);
        }
        try (Transaction t = db.createTransaction()) {
            t.addReadConflictKey(b(CONNECTION_STRING));
            assertThat(errorCode(t.commit())).isEqualTo(2004);
        }
    }

    @Test
    void keysPastTheSpecialKeySpaceAreOutsideTheLegalRange() {
        tr.options().setReadSystemKeys();
        assertThat(errorCode(tr.get(b("\u00ff\u00ff\u00ff")))).isEqualTo(2004);
        assertThat(errorCode(tr.getRange(b("\u00ff\u00ff/a"), b("\u00ff\u00ff\u00ff\u0000")).asList())).isEqualTo(2004);
        assertThat(errorCode(tr.getRange(b("\u00ff/a"), b("\u00ff\u00ff/status/json")).asList())).isEqualTo(2004);
    }

    // ---------------------------------------------------------------- modules

    @Test
    void aKeyOutsideEveryModuleIsNoModuleFound() {
        assertThat(errorCode(tr.get(b("\u00ff\u00ff")))).isEqualTo(2113);
        assertThat(errorCode(tr.get(b("\u00ff\u00ff/no_such_thing")))).isEqualTo(2113);
        assertThat(errorCode(tr.getRange(b("\u00ff\u00ff/0"), b("\u00ff\u00ff/1")).asList())).isEqualTo(2113);
        // Between modules too; the gap ends where the next module begins.
        assertThat(errorCode(tr.getRange(b("\u00ff\u00ff/management0"), b("\u00ff\u00ff/metrics/")).asList())).isEqualTo(2113);
        assertThat(errorCode(tr.getRange(b("\u00ff\u00ff/management0"), b("\u00ff\u00ff/metrics/x")).asList())).isEqualTo(2112);
    }

    @Test
    void aReadLeavingItsModuleIsCrossModule() {
        assertThat(errorCode(tr.getRange(b(CONNECTION_STRING), b("\u00ff\u00ff/status/json")).asList())).isEqualTo(2112);
        assertThat(errorCode(tr.getRange(b("\u00ff\u00ff/a"), b("\u00ff\u00ff/transaction/x")).asList())).isEqualTo(2112);
        assertThat(errorCode(tr.getRange(b("\u00ff\u00ff/transaction/"), b("\u00ff\u00ff\u00ff")).asList())).isEqualTo(2112);
    }

    @Test
    void aReadEndingAtItsModulesEndStaysInside() {
        assertThat(range(CONFIGURATION, "\u00ff\u00ff/configuration0")).hasSize(4);
        assertThat(range(CONNECTION_STRING, CONNECTION_STRING + "\u0000")).hasSize(1);
    }

    @Test
    void relaxedReadsSpanModulesAndReadNothingOutsideThem() {
        tr.options().setSpecialKeySpaceRelaxed();
        assertThat(keys(range(CLUSTER_FILE_PATH, "\u00ff\u00ff/connection_string\u0000"))).containsExactly(
                CLUSTER_FILE_PATH,
                "\u00ff\u00ff/cluster_id",
                "\u00ff\u00ff/configuration/coordinators/cluster_description",
                "\u00ff\u00ff/configuration/coordinators/processes",
                "\u00ff\u00ff/configuration/process/class_source/127.0.0.1:0",
                "\u00ff\u00ff/configuration/process/class_type/127.0.0.1:0",
                CONNECTION_STRING);
        assertThat(tr.get(b("\u00ff\u00ff/no_such_thing")).join()).isNull();
        assertThat(range("\u00ff\u00ff", "\u00ff\u00ff/a")).isEmpty();
    }

    @Test
    void relaxedIsResetByOnError() {
        tr.options().setSpecialKeySpaceRelaxed();
        Transaction next = tr.onError(new com.apple.foundationdb.FDBException("not_committed", 1020)).join();
        try {
            assertThat(errorCode(next.get(b("\u00ff\u00ff/no_such_thing")))).isEqualTo(2113);
        } finally {
            next.close();
        }
    }

    // ---------------------------------------------------------------- selectors, limits, reverse

    private static final String CLASS_SOURCE = "\u00ff\u00ff/configuration/process/class_source/127.0.0.1:0";
    private static final String CLASS_TYPE = "\u00ff\u00ff/configuration/process/class_type/127.0.0.1:0";
    private static final String DESCRIPTION = "\u00ff\u00ff/configuration/coordinators/cluster_description";
    private static final String PROCESSES = "\u00ff\u00ff/configuration/coordinators/processes";

    private List<String> select(KeySelector begin, KeySelector end) {
        return keys(tr.getRange(begin, end).asList().join());
    }

    @Test
    void keySelectorsResolveOverTheModulesKeys() {
        byte[] module = b(CONFIGURATION);
        byte[] moduleEnd = b("\u00ff\u00ff/configuration0");
        assertThat(select(KeySelector.firstGreaterThan(b(DESCRIPTION)), KeySelector.firstGreaterOrEqual(moduleEnd)))
                .containsExactly(PROCESSES, CLASS_SOURCE, CLASS_TYPE);
        assertThat(select(KeySelector.firstGreaterOrEqual(module), KeySelector.lastLessOrEqual(b(CLASS_SOURCE))))
                .containsExactly(DESCRIPTION, PROCESSES);
        assertThat(select(new KeySelector(module, false, 3), KeySelector.firstGreaterOrEqual(moduleEnd)))
                .containsExactly(CLASS_SOURCE, CLASS_TYPE);
        assertThat(select(KeySelector.firstGreaterOrEqual(module), new KeySelector(moduleEnd, false, -1)))
                .containsExactly(DESCRIPTION, PROCESSES);
    }

    @Test
    void selectorsThatRunOffTheModuleAreClampedToIt() {
        byte[] module = b(CONFIGURATION);
        byte[] moduleEnd = b("\u00ff\u00ff/configuration0");
        // Moving back from the module's first key runs off its begin: the read starts there.
        assertThat(select(new KeySelector(b(DESCRIPTION), false, -5), KeySelector.firstGreaterOrEqual(b(CLASS_SOURCE))))
                .containsExactly(DESCRIPTION, PROCESSES);
        // Moving forward past its last key runs off its end: the read is empty.
        assertThat(select(new KeySelector(module, false, 10), KeySelector.firstGreaterOrEqual(moduleEnd))).isEmpty();
        assertThat(select(KeySelector.firstGreaterOrEqual(module), new KeySelector(moduleEnd, false, 10)))
                .containsExactly(DESCRIPTION, PROCESSES, CLASS_SOURCE, CLASS_TYPE);
    }

    @Test
    void limitsAndReverse() {
        byte[] module = b(CONFIGURATION);
        byte[] moduleEnd = b("\u00ff\u00ff/configuration0");
        assertThat(keys(tr.getRange(module, moduleEnd, 2).asList().join())).containsExactly(DESCRIPTION, PROCESSES);
        assertThat(keys(tr.getRange(module, moduleEnd, 3, true).asList().join())).containsExactly(CLASS_TYPE, CLASS_SOURCE, PROCESSES);
        assertThat(keys(tr.getRange(module, moduleEnd, 0, true, StreamingMode.SMALL).asList().join()))
                .containsExactly(CLASS_TYPE, CLASS_SOURCE, PROCESSES, DESCRIPTION);
        List<String> iterated = new java.util.ArrayList<>();
        tr.getRange(module, moduleEnd, 3, false, StreamingMode.ITERATOR).forEach(kv -> iterated.add(s(kv.getKey())));
        assertThat(iterated).containsExactly(DESCRIPTION, PROCESSES, CLASS_SOURCE);
        assertThat(errorCode(tr.getRange(module, moduleEnd, -2).asList())).isEqualTo(2012);
        assertThat(errorCode(tr.getRange(module, moduleEnd, 0, false, StreamingMode.EXACT).asList())).isEqualTo(2210);
    }

    @Test
    void anInvertedRangeIsEmptyBeforeAnyModuleCheck() {
        assertThat(range("\u00ff\u00ff/b", "\u00ff\u00ff/a")).isEmpty();
    }

    // ---------------------------------------------------------------- writes

    @Test
    void writesNeedTheEnableWritesOption() {
        tr.set(b("\u00ff\u00ff/management/db_locked"), b("x"));
        assertThat(errorCode(tr.commit())).isEqualTo(2114);
        try (Transaction t = db.createTransaction()) {
            t.clear(b("\u00ff\u00ff/management/excluded/"), b("\u00ff\u00ff/management/excluded0"));
            assertThat(errorCode(t.get(b("k")))).isEqualTo(2114);
        }
        try (Transaction t = db.createTransaction()) {
            t.clear(b(CONNECTION_STRING));
            assertThat(errorCode(t.commit())).isEqualTo(2114);
        }
    }

    @Test
    void writesOutsideAWritableRangeOrAcrossRangesFail() {
        tr.options().setSpecialKeySpaceEnableWrites();
        tr.set(b(CONNECTION_STRING), b("x"));
        assertThat(errorCode(tr.commit())).isEqualTo(2115);
        try (Transaction t = db.createTransaction()) {
            t.options().setSpecialKeySpaceEnableWrites();
            t.set(b("\u00ff\u00ff/nowhere"), b("x"));
            assertThat(errorCode(t.commit())).isEqualTo(2115);
        }
        try (Transaction t = db.createTransaction()) {
            t.options().setSpecialKeySpaceEnableWrites();
            t.clear(b("\u00ff\u00ff/management/db_locked"), b("\u00ff\u00ff/management/excluded0"));
            assertThat(errorCode(t.commit())).isEqualTo(2116);
        }
        try (Transaction t = db.createTransaction()) {
            t.options().setSpecialKeySpaceEnableWrites();
            t.clear(b("\u00ff\u00ff/a"), b("\u00ff\u00ff/a"));
            t.set(b("k"), b("v"));
            t.commit().join(); // an empty clear is no error
        }
    }

    @Test
    void aManagementCommandFailsTheCommitWithItsReasonInErrorMessage() {
        tr.options().setSpecialKeySpaceEnableWrites();
        tr.set(b("\u00ff\u00ff/management/db_locked"), b("0123456789abcdef0123456789abcdef"));
        tr.set(b("k"), b("v"));
        assertThat(errorCode(tr.commit())).isEqualTo(2117);
        Object message = Json.parse(get("\u00ff\u00ff/error_message"));
        assertThat(Json.at(message, "command")).isEqualTo("lock");
        assertThat(Json.at(message, "retriable")).isEqualTo(false);
        assertThat((String) Json.at(message, "message")).isNotEmpty();
        assertThat(Fdb.valueOf(db, "k")).isNull(); // nothing of the transaction committed
    }

    @Test
    void errorMessageIsClearedByOnError() {
        tr.options().setSpecialKeySpaceEnableWrites();
        tr.set(b("\u00ff\u00ff/management/db_locked"), b("x"));
        assertThat(errorCode(tr.commit())).isEqualTo(2117);
        assertThat(get("\u00ff\u00ff/error_message")).isNotNull();
        // RYW's reset (resetRyow) clears the message; the retry starts without it.
        Transaction retried = tr.onError(new com.apple.foundationdb.FDBException("not_committed", 1020)).join();
        try {
            assertThat(retried.get(b("\u00ff\u00ff/error_message")).join()).isNull();
        } finally {
            retried.close();
        }
    }

    @Test
    void managementOptionsSetInTheTransactionReadBack() {
        tr.options().setSpecialKeySpaceEnableWrites();
        tr.set(b("\u00ff\u00ff/management/options/excluded/force"), b(""));
        tr.set(b("\u00ff\u00ff/management/options/not_an_option"), b("")); // ignored, as FoundationDB ignores it
        assertThat(keys(range("\u00ff\u00ff/management/options/", "\u00ff\u00ff/management/options0")))
                .containsExactly("\u00ff\u00ff/management/options/excluded/force");
        tr.clear(b("\u00ff\u00ff/management/options/excluded/force"));
        assertThat(range("\u00ff\u00ff/management/options/", "\u00ff\u00ff/management/options0")).isEmpty();
        tr.set(b("k"), b("v"));
        tr.commit().join(); // options alone run no command
    }

    @Test
    void tenantManagementFailsAsOnAClusterWithTenantsDisabled() {
        tr.options().setSpecialKeySpaceEnableWrites();
        tr.set(b("\u00ff\u00ff/management/tenant/map/acme"), b(""));
        assertThat(errorCode(tr.commit())).isEqualTo(2136);
    }

    @Test
    void aSpecialSetIsNotUsedDuringCommit() {
        tr.set(b("k"), b("v"));
        CompletableFuture<Void> commit = tr.commit();
        commit.join();
        // RYW set hands a special key over before its used-during-commit check: the error is
        // write_disabled, and (with protection disabled, as fdb-java's transactions have it)
        // it is deferred like any void call's.
        tr.set(b("\u00ff\u00ff/management/db_locked"), b("x"));
        assertThat(errorCode(tr.get(b(CONNECTION_STRING)))).isEqualTo(2114);
    }

    // ---------------------------------------------------------------- single-process answers

    @Test
    void managementReadsAnswerForAnUnconfiguredSingleProcess() {
        assertThat(range("\u00ff\u00ff/management/excluded/", "\u00ff\u00ff/management/excluded0")).isEmpty();
        assertThat(range("\u00ff\u00ff/management/failed/", "\u00ff\u00ff/management/failed0")).isEmpty();
        assertThat(range("\u00ff\u00ff/management/maintenance/", "\u00ff\u00ff/management/maintenance0")).isEmpty();
        assertThat(range("\u00ff\u00ff/management/tenant/", "\u00ff\u00ff/management/tenant0")).isEmpty();
        assertThat(get("\u00ff\u00ff/management/db_locked")).isNull();
        assertThat(get("\u00ff\u00ff/management/consistency_check_suspended")).isNull();
        assertThat(get("\u00ff\u00ff/management/min_required_commit_version")).isNull();
        assertThat(get("\u00ff\u00ff/management/version_epoch")).isNull();
        assertThat(get("\u00ff\u00ff/management/data_distribution/mode")).isEqualTo("-1");
    }

    @Test
    void autoCoordinatorsFailsAsWithoutACoordinatorsKey() {
        assertThat(errorCode(tr.get(b("\u00ff\u00ff/management/auto_coordinators")))).isEqualTo(2117);
        Object message = Json.parse(get("\u00ff\u00ff/error_message"));
        assertThat(Json.at(message, "command")).isEqualTo("auto_coordinators");
        assertThat(Json.at(message, "message")).isEqualTo("The coordinator key does not exist");
    }

    @Test
    void configurationNamesTheOneProcess() {
        assertThat(get(CLASS_TYPE)).isEqualTo("unset");
        assertThat(get(CLASS_SOURCE)).isEqualTo("command_line");
        assertThat(get(PROCESSES)).isEqualTo("127.0.0.1:0");
        assertThat(get(DESCRIPTION)).isEqualTo("strata");
    }

    @Test
    void workerInterfacesHealthMetricsGlobalConfigAndTracingReadEmpty() {
        assertThat(range("\u00ff\u00ff/worker_interfaces/", "\u00ff\u00ff/worker_interfaces0")).isEmpty();
        assertThat(range("\u00ff\u00ff/metrics/health/", "\u00ff\u00ff/metrics/health0")).isEmpty();
        assertThat(range("\u00ff\u00ff/global_config/", "\u00ff\u00ff/global_config0")).isEmpty();
        assertThat(range("\u00ff\u00ff/tracing/", "\u00ff\u00ff/tracing0")).isEmpty();
        assertThat(range("\u00ff\u00ff/actor_profiler_conf/", "\u00ff\u00ff/actor_profiler_conf0")).isEmpty();
    }

    @Test
    void actorLineageIsAnApiFailure() {
        assertThat(errorCode(tr.getRange(b("\u00ff\u00ff/actor_lineage/"), b("\u00ff\u00ff/actor_lineage0")).asList())).isEqualTo(2117);
        assertThat(Json.at(Json.parse(get("\u00ff\u00ff/error_message")), "command")).isEqualTo("read actor_lineage");
    }

    @Test
    void dataDistributionStatsListTheShards() {
        ReadTests.load(db, "a", "b");
        List<KeyValue> rows = range("\u00ff\u00ff/metrics/data_distribution_stats/", "\u00ff\u00ff/metrics/data_distribution_stats0");
        assertThat(keys(rows)).containsExactly("\u00ff\u00ff/metrics/data_distribution_stats/");
        @SuppressWarnings("unchecked")
        Map<String, Object> stats = (Map<String, Object>) Json.parse(s(rows.get(0).getValue()));
        assertThat(stats.get("shard_bytes")).isEqualTo(4.0); // "a"+"a", "b"+"b"
    }
}
