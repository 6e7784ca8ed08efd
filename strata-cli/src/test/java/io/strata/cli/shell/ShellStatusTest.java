package io.strata.cli.shell;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDBException;
import io.strata.Strata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code status} in its levels, on a canned status document of one process (what fdbcli would
 * print for it, read off its {@code printStatus}), and when the database does not serve one.
 */
class ShellStatusTest {
    /** A single-process FoundationDB status document, cut down to what fdbcli reads. */
    static final String DOCUMENT = """
            {
              "client": {
                "cluster_file": {"path": "/etc/foundationdb/fdb.cluster", "up_to_date": true},
                "coordinators": {"coordinators": [{"address": "127.0.0.1:4500", "reachable": true}], "quorum_reachable": true},
                "database_status": {"available": true, "healthy": true},
                "messages": [],
                "timestamp": 1700000000
              },
              "cluster": {
                "configuration": {"redundancy_mode": "single", "storage_engine": "memory", "log_engine": "ssd-2",
                                  "coordinators_count": 1, "usable_regions": 1, "commit_proxies": 1},
                "processes": {"p1": {"address": "127.0.0.1:4500", "machine_id": "m1",
                                     "locality": {"zoneid": "m1", "machineid": "m1"},
                                     "memory": {"available_bytes": 8589934592, "rss_bytes": 104857600},
                                     "cpu": {"usage_cores": 0.05}, "disk": {"busy": 0.01},
                                     "roles": [{"role": "storage", "id": "s1"}, {"role": "log", "id": "l1"}],
                                     "messages": []}},
                "machines": {"m1": {"cpu": {"logical_core_utilization": 0.1},
                                    "network": {"megabits_sent": {"hz": 1.5}, "megabits_received": {"hz": 2.0}}}},
                "fault_tolerance": {"max_zone_failures_without_losing_availability": 0,
                                    "max_zone_failures_without_losing_data": 0},
                "data": {"state": {"name": "healthy", "healthy": true},
                         "moving_data": {"in_queue_bytes": 0, "in_flight_bytes": 0},
                         "total_kv_size_bytes": 12345678, "total_disk_used_bytes": 104857600,
                         "least_operating_space_bytes_storage_server": 50000000000,
                         "least_operating_space_bytes_log_server": 50000000000},
                "workload": {"operations": {"reads": {"hz": 12.4}, "writes": {"hz": 3.6}},
                             "transactions": {"started": {"hz": 5.0}, "committed": {"hz": 2.0}, "conflicted": {"hz": 0.0}}},
                "qos": {"performance_limited_by": {"name": "workload", "description": "The database is not being saturated."}},
                "cluster_controller_timestamp": 1700000000,
                "recovery_state": {"name": "fully_recovered", "description": "Recovery complete."}
              }
            }
            """;

    static final String NORMAL = """
            Using cluster file `/etc/foundationdb/fdb.cluster'.

            Configuration:
              Redundancy mode        - single
              Storage engine         - memory
              Log engine             - ssd-2
              Encryption at-rest     - disabled
              Coordinators           - 1
              Desired Commit Proxies - 1
              Usable Regions         - 1

            Cluster:
              FoundationDB processes - 1
              Zones                  - 1
              Machines               - 1
              Memory availability    - 8.0 GB per process on machine with least available
              Fault Tolerance        - 0 machines
              Server time            - 11/14/23 22:13:20

            Data:
              Replication health     - Healthy
              Moving data            - 0.000 GB
              Sum of key-value sizes - 12 MB
              Disk space used        - 105 MB

            Operating space:
              Storage server         - 50.0 GB free on most full server
              Log server             - 50.0 GB free on most full server

            Workload:
              Read rate              - 12 Hz
              Write rate             - 4 Hz
              Transactions started   - 5 Hz
              Transactions committed - 2 Hz
              Conflict rate          - 0 Hz

            Backup and DR:
              Running backups        - 0
              Running DRs            - 0
            """;

    private Database db;

    @BeforeEach
    void open() {
        db = Strata.inMemory();
    }

    @AfterEach
    void close() {
        db.close();
    }

    private static String print(String document, StatusFormatter.Level level, StringWriter err) {
        StringWriter out = new StringWriter();
        @SuppressWarnings("unchecked")
        Map<String, Object> doc = (Map<String, Object>) Json.parse(document);
        new StatusFormatter(ZoneOffset.UTC).print(doc, level, true, new PrintWriter(out, true), new PrintWriter(err, true));
        return out.toString();
    }

    private static String print(String document, StatusFormatter.Level level) {
        return print(document, level, new StringWriter());
    }

    @Test
    void statusPrintsFdbclisSections() {
        assertThat(print(DOCUMENT, StatusFormatter.Level.NORMAL)).isEqualTo(NORMAL + "\nClient time: 11/14/23 22:13:20\n");
    }

    @Test
    void statusDetailsAddsProcessesAndCoordinators() {
        assertThat(print(DOCUMENT, StatusFormatter.Level.DETAILED)).isEqualTo(NORMAL + """

                Process performance details:
                  127.0.0.1:4500         (  5% cpu; 10% machine; 0.002 Gbps;  1% disk IO; 0.1 GB / 8.0 GB RAM  )

                Coordination servers:
                  127.0.0.1:4500  (reachable)

                Client time: 11/14/23 22:13:20
                """);
    }

    @Test
    void statusMinimalSaysWhetherTheDatabaseIsAvailable() {
        assertThat(print(DOCUMENT, StatusFormatter.Level.MINIMAL)).isEqualTo("The database is available.\n");
        assertThat(print(DOCUMENT.replace("\"available\": true, \"healthy\": true", "\"available\": true, \"healthy\": false"),
                StatusFormatter.Level.MINIMAL))
                .isEqualTo("The database is available, but has issues (type 'status' for more information).\n");
        assertThat(print(DOCUMENT.replace("\"available\": true", "\"available\": false"), StatusFormatter.Level.MINIMAL))
                .isEqualTo("The database is unavailable; type `status' for more information.\n");
        assertThat(print("{}", StatusFormatter.Level.MINIMAL))
                .isEqualTo("Unable to determine database state, type 'status' for more information.\n");
        StringWriter err = new StringWriter();
        print(DOCUMENT.replace("\"up_to_date\": true", "\"up_to_date\": false"), StatusFormatter.Level.MINIMAL, err);
        assertThat(err.toString()).isEqualTo("WARNING: The cluster file is not up to date. Type 'status' for more information.\n");
    }

    @Test
    void aSparseDocumentPrintsUnknowns() {
        String out = print("{\"client\": {}, \"cluster\": {\"configuration\": {\"redundancy_mode\": 3}}}", StatusFormatter.Level.NORMAL);
        assertThat(out).startsWith("Using unknown cluster file.\n\nConfiguration:\n  Unable to retrieve configuration status\n\n"
                + "Cluster:\n  FoundationDB processes - unknown\n  Zones                  - unknown\n  Machines               - unknown\n\n"
                + "Data:\n  Replication health     - unknown\n  Moving data            - unknown\n"
                + "  Sum of key-value sizes - unknown\n  Disk space used        - unknown\n\n"
                + "Operating space:\n  Unable to retrieve operating space status\n\n"
                + "Workload:\n  Read rate              - unknown\n");
    }

    @Test
    void anUnfinishedRecoveryPrintsOnlyItsDescription() {
        String out = print("""
                {"client": {"cluster_file": {"path": "/f"}},
                 "cluster": {"recovery_state": {"name": "recruiting_transaction_servers", "description": "Recruiting new transaction servers.",
                   "required_logs": 3, "required_commit_proxies": 1, "required_grv_proxies": 1, "required_resolvers": 1}}}
                """, StatusFormatter.Level.NORMAL);
        // fdbcli's lineWrap keeps the line feed it broke at as the start of the next line, so
        // the added sentence follows a blank line, and wraps at 80 columns counting that feed.
        assertThat(out).isEqualTo("Using cluster file `/f'.\n\nRecruiting new transaction servers.\n\n"
                + "Need at least 3 log servers across unique zones, 1 commit proxies, 1 GRV\nproxies and 1 resolvers.\n");
    }

    @Test
    void statusJsonPrintsTheDocumentPretty() {
        String out = print(DOCUMENT, StatusFormatter.Level.JSON);
        assertThat(out).startsWith("{\n    \"client\" : {\n        \"cluster_file\" : {\n            \"path\" : \"/etc/foundationdb/fdb.cluster\",\n");
        // A real with an integral value prints as %.17g prints it: 2.0 as 2.
        assertThat(out).contains("\"committed\" : {\n                    \"hz\" : 2\n", "\"hz\" : 12.4\n");
        assertThat(Json.pretty(Json.parse(out)) + "\n").as("a fixed point").isEqualTo(out);
    }

    @Test
    void theCommandReadsTheDocumentAndFramesItWithBlankLines() {
        ShellSession interactive = new ShellSession(db, false, () -> DOCUMENT.getBytes(StandardCharsets.UTF_8));
        assertThat(interactive.ok("status minimal")).isEqualTo("\nThe database is available.\n\n");
        assertThat(interactive.ok("status")).startsWith("\nUsing cluster file `/etc/foundationdb/fdb.cluster'.\n\nConfiguration:\n");
        ShellSession exec = new ShellSession(db, true, () -> DOCUMENT.getBytes(StandardCharsets.UTF_8));
        assertThat(exec.ok("status minimal")).isEqualTo("The database is available.\n");
        assertThat(exec.ok("status json")).startsWith("{\n    \"client\" : {");
        assertThat(exec.run("status bogus").out()).isEqualTo("Usage: status [minimal|details|json]\n");
    }

    @Test
    void aDatabaseWithoutAStatusDocumentGetsFdbclisMessages() {
        ShellSession shell = new ShellSession(db, true, () -> {
            throw new FDBException("Key outside legal range", 2004);
        });
        ShellSession.Output o = shell.run("status");
        assertThat(o.out()).isEqualTo("Could not retrieve status, type 'status json' for more information.\n");
        assertThat(o.err()).isEqualTo("ERROR: Key outside legal range (2004)\n");
        assertThat(o.failed()).isTrue();
        assertThat(shell.run("status json").out()).isEqualTo("Could not retrieve status json.\n\n");
        assertThat(shell.run("status minimal").out())
                .isEqualTo("Unable to determine database state, type 'status' for more information.\n");
        assertThat(new ShellSession(db, true, () -> null).run("status").err())
                .isEqualTo("ERROR: Failed to get status json from the cluster\n");
        assertThat(new ShellSession(db, true, () -> "{nope".getBytes(StandardCharsets.UTF_8)).run("status json").out())
                .isEqualTo("Could not retrieve status json.\n\n");
    }

    @Test
    void theStartupCheckFallsBackToAReadVersion() {
        StringWriter out = new StringWriter();
        Shell shell = new Shell(db, new PrintWriter(out), new PrintWriter(new StringWriter()), false, () -> {
            throw new FDBException("Key outside legal range", 2004);
        });
        shell.printAvailability();
        assertThat(out.toString()).isEqualTo("\nThe database is available.\n\n");
        StringWriter canned = new StringWriter();
        new Shell(db, new PrintWriter(canned), new PrintWriter(new StringWriter()), false,
                () -> DOCUMENT.replace("\"available\": true", "\"available\": false").getBytes(StandardCharsets.UTF_8))
                .printAvailability();
        assertThat(canned.toString()).isEqualTo("\nThe database is unavailable; type `status' for more information.\n\n");
    }

    @Test
    void theRealStatusKeyIsReadFromTheDatabase() {
        // Whatever the engine answers for \xff\xff/status/json today (a document, or an error
        // until it serves one), the command reports it in one of fdbcli's forms.
        ShellSession shell = new ShellSession(db, true, null);
        ShellSession.Output o = shell.run("status minimal");
        if (o.failed()) {
            assertThat(o.err()).startsWith("ERROR: ");
            assertThat(o.out()).isEqualTo("Unable to determine database state, type 'status' for more information.\n");
        } else {
            assertThat(o.out()).startsWith("The database is");
        }
    }
}
