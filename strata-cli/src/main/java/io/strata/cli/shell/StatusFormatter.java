package io.strata.cli.shell;

import java.io.PrintWriter;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static io.strata.cli.shell.StatusDocument.Unreadable;
import static io.strata.cli.shell.StatusDocument.array;
import static io.strata.cli.shell.StatusDocument.bool;
import static io.strata.cli.shell.StatusDocument.integer;
import static io.strata.cli.shell.StatusDocument.object;
import static io.strata.cli.shell.StatusDocument.objectOrEmpty;
import static io.strata.cli.shell.StatusDocument.real;
import static io.strata.cli.shell.StatusDocument.required;
import static io.strata.cli.shell.StatusDocument.string;

/**
 * Prints a status document the way fdbcli's {@code printStatus} does
 * ({@code fdbcli/StatusCommand.actor.cpp}): the sections of {@code status} and
 * {@code status details}, the one line of {@code status minimal}, the pretty JSON of
 * {@code status json}. Each section reads what it needs and falls back to fdbcli's "unknown"
 * or "Unable to retrieve ..." when members are missing or of the wrong type, so a sparse
 * document (a single process has no regions, zones or backups) prints as fdbcli would print it.
 *
 * <p>Left out, because a single-process database has none of them: the log epochs listed under
 * a data-loss warning, blob granules and blob restore. Where fdbcli prints "Machines" twice when
 * the member is missing (a slip in its code), this prints it once.
 */
final class StatusFormatter {
    /** The levels of the {@code status} command. */
    enum Level { NORMAL, DETAILED, MINIMAL, JSON }

    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("MM/dd/yy HH:mm:ss", Locale.ROOT);
    private static final Set<String> RECOVERED = Set.of("accepting_commits", "all_logs_recruited", "storage_recovered",
            "fully_recovered");
    private static final Set<String> FATAL_SKIPPED_MESSAGES = Set.of("status_incomplete", "unreadable_configuration",
            "immediate_priority_transaction_start_probe_timeout", "batch_priority_transaction_start_probe_timeout",
            "transaction_start_probe_timeout", "read_probe_timeout", "commit_probe_timeout");

    private final ZoneId zone;

    /** A formatter that prints times in {@code zone} (fdbcli prints local time). */
    StatusFormatter(ZoneId zone) {
        this.zone = zone;
    }

    /** Prints {@code doc} at {@code level}; {@code displayAvailable} as fdbcli's start-up check passes it. */
    void print(Map<String, Object> doc, Level level, boolean displayAvailable, PrintWriter out, PrintWriter err) {
        switch (level) {
            case MINIMAL -> minimal(doc, displayAvailable, out, err);
            case JSON -> out.print(Json.pretty(doc) + "\n");
            default -> out.print(full(doc, level == Level.DETAILED));
        }
    }

    // ---- status minimal -------------------------------------------------------------------

    private static void minimal(Map<String, Object> doc, boolean displayAvailable, PrintWriter out, PrintWriter err) {
        try {
            Map<String, Object> client = required(object(doc, "client"), "client");
            Map<String, Object> database = required(object(client, "database_status"), "client.database_status");
            boolean available = required(bool(database, "available"), "available");
            if (!available) {
                out.print("The database is unavailable; type `status' for more information.\n");
            } else {
                boolean healthy;
                try {
                    healthy = required(bool(database, "healthy"), "healthy");
                } catch (Unreadable e) {
                    healthy = false;
                }
                if (!healthy) {
                    out.print("The database is available, but has issues (type 'status' for more information).\n");
                } else if (displayAvailable) {
                    out.print("The database is available.\n");
                }
            }
            Boolean upToDate = bool(client, "cluster_file.up_to_date");
            if (upToDate == null || !upToDate) {
                out.flush();
                err.print("WARNING: The cluster file is not up to date. Type 'status' for more information.\n");
                err.flush();
            }
        } catch (Unreadable e) {
            out.print("Unable to determine database state, type 'status' for more information.\n");
        }
    }

    // ---- status and status details --------------------------------------------------------

    private String full(Map<String, Object> doc, boolean detailed) {
        StringBuilder o = new StringBuilder();
        Map<String, Object> client = objectOrEmpty(doc, "client");
        String clusterFile = string(client, "cluster_file.path");
        o.append(clusterFile != null ? "Using cluster file `" + clusterFile + "'.\n" : "Using unknown cluster file.\n");

        boolean printedCoordinators = false;
        Map<String, Object> coordinators = objectOrEmpty(client, "coordinators");
        List<Object> coordinatorList = array(coordinators, "coordinators");
        Boolean quorum = bool(coordinators, "quorum_reachable");
        if (quorum != null && !quorum) {
            o.append("\nCould not communicate with a quorum of coordination servers:").append(coordinatorsInfo(doc));
            return o + "\n";
        }
        for (Object c : coordinatorList == null ? List.of() : coordinatorList) {
            Boolean reachable = bool(c, "reachable");
            if (reachable != null && !reachable) {
                o.append("\nCould not communicate with all of the coordination servers.")
                        .append("\n  The database will remain operational as long as we")
                        .append("\n  can connect to a quorum of servers, however the fault")
                        .append("\n  tolerance of the system is reduced as long as the")
                        .append("\n  servers remain disconnected.\n")
                        .append(coordinatorsInfo(doc)).append("\n");
                printedCoordinators = true;
                break;
            }
        }
        for (Object message : listOrEmpty(client, "messages")) {
            String description = string(message, "description");
            if (description != null) {
                o.append("\n").append(LineWrap.lineWrap(description, 80));
            }
        }

        Map<String, Object> cluster = objectOrEmpty(doc, "cluster");
        boolean fatalRecovery = false;
        try {
            Map<String, Object> recovery = object(cluster, "recovery_state");
            String name = recovery == null ? null : string(recovery, "name");
            String description = recovery == null ? null : string(recovery, "description");
            if (name != null && description != null && !RECOVERED.contains(name)) {
                fatalRecovery = true;
                if (name.equals("recruiting_transaction_servers")) {
                    description += String.format("\nNeed at least %d log servers across unique zones, %d commit proxies, "
                                    + "%d GRV proxies and %d resolvers.",
                            required(integer(recovery, "required_logs"), "required_logs"),
                            required(integer(recovery, "required_commit_proxies"), "required_commit_proxies"),
                            required(integer(recovery, "required_grv_proxies"), "required_grv_proxies"),
                            required(integer(recovery, "required_resolvers"), "required_resolvers"));
                } else if (name.equals("locking_old_transaction_servers")) {
                    String missing = required(string(recovery, "missing_logs"), "missing_logs");
                    if (!missing.isEmpty()) {
                        description += "\nNeed one or more of the following log servers: " + missing;
                    }
                }
                description = LineWrap.lineWrap(description, 80);
                if (!printedCoordinators && Set.of("reading_coordinated_state", "locking_coordinated_state",
                        "configuration_never_created", "writing_coordinated_state").contains(name)) {
                    description += coordinatorsInfo(doc) + "\n";
                    printedCoordinators = true;
                }
                o.append("\n").append(description);
            }
        } catch (Unreadable e) {
            // fdbcli ignores an unreadable recovery state
        }
        try {
            List<Object> messages = array(cluster, "messages");
            for (Object m : messages == null ? List.of() : messages) {
                String name = string(m, "name");
                if (name == null || name.isEmpty() || name.equals("unreachable_process")
                        || (fatalRecovery && FATAL_SKIPPED_MESSAGES.contains(name))) {
                    continue;
                }
                if (name.equals("client_issues")) {
                    for (Object issue : listOrEmpty(m, "issues")) {
                        String issueName = string(issue, "name");
                        if (issueName == null) {
                            continue;
                        }
                        String description = string(issue, "description");
                        List<Object> addresses = array(issue, "addresses");
                        String count = addresses == null ? "Some client(s)" : addresses.size() + " client(s)";
                        o.append("\n").append(count).append(" reported: ")
                                .append(description != null ? description : issueName).append("\n");
                        if (detailed && addresses != null) {
                            for (int i = 0; i < addresses.size() && i < 4; i++) {
                                o.append("  ").append(addresses.get(i)).append("\n");
                            }
                            if (addresses.size() > 4) {
                                o.append("  ...\n");
                            }
                        }
                    }
                } else {
                    String description = string(m, "description");
                    if (description != null) {
                        o.append("\n").append(LineWrap.lineWrap(description, 80));
                    }
                }
            }
        } catch (Unreadable e) {
            // as fdbcli: messages that cannot be read are left out
        }
        if (fatalRecovery) {
            return o.toString();
        }

        Map<String, Object> processes = objectOrEmpty(cluster, "processes");
        boolean oldMemory = configuration(o, cluster);
        boolean foundLogAndStorage;
        clusterSection(o, cluster, processes);
        dataSection(o, cluster);
        foundLogAndStorage = workloadSection(o, cluster, processes);
        backupSection(o, cluster, detailed);
        if (detailed) {
            processDetails(o, cluster, processes);
            if (!printedCoordinators) {
                o.append("\n\nCoordination servers:").append(coordinatorsInfo(doc));
            }
        }
        String clientTime = date(client, "timestamp");
        if (!clientTime.isEmpty()) {
            o.append("\n\nClient time: ").append(clientTime);
        }
        if (processes.size() > 1 && oldMemory) {
            o.append("\n\nWARNING: type `configure memory' to switch to a safer method of persisting data "
                    + "on the transaction logs.");
        }
        if (processes.size() > 9 && foundLogAndStorage) {
            o.append("\n\nWARNING: A single process is both a transaction log and a storage server.\n  For best "
                    + "performance use dedicated disks for the transaction logs by setting process classes.");
        }
        if (cluster.containsKey("data_distribution_disabled")) {
            o.append("\n\nWARNING: Data distribution is off.");
        } else {
            if (cluster.containsKey("data_distribution_disabled_for_ss_failures")) {
                o.append("\n\nWARNING: Data distribution is currently turned on but disabled for all "
                        + "storage server failures.");
            }
            if (cluster.containsKey("data_distribution_disabled_for_rebalance")) {
                o.append("\n\nWARNING: Data distribution is currently turned on but one or both of shard "
                        + "size and read-load based balancing are disabled.");
                String hex = string(cluster, "data_distribution_disabled_hex");
                if (hex != null) {
                    o.append(" Ignore code: ").append(hex);
                }
            }
        }
        return o + "\n";
    }

    /** The Configuration section; answers whether the storage engine is the old {@code memory-1}. */
    private static boolean configuration(StringBuilder o, Map<String, Object> cluster) {
        o.append("\nConfiguration:");
        int mark = o.length();
        boolean oldMemory = false;
        try {
            Map<String, Object> config = objectOrEmpty(cluster, "configuration");
            String activePrimary = string(cluster, "active_primary_dc");
            o.append("\n  Redundancy mode        - ").append(orUnknown(string(config, "redundancy_mode")));
            String engine = string(config, "storage_engine");
            oldMemory = "memory-1".equals(engine);
            o.append("\n  Storage engine         - ").append(orUnknown(engine));
            o.append("\n  Log engine             - ").append(orUnknown(string(config, "log_engine")));
            Long blob = integer(config, "blob_granules_enabled");
            if (blob != null && blob != 0) {
                o.append("\n  Blob granules          - enabled");
            }
            String encryption = string(config, "encryption_at_rest_mode");
            o.append("\n  Encryption at-rest     - ").append(encryption != null ? encryption : "disabled");
            o.append("\n  Coordinators           - ").append(orUnknown(integer(config, "coordinators_count")));
            List<Object> excluded = array(config, "excluded_servers");
            if (excluded != null && !excluded.isEmpty()) {
                o.append(String.format("\n  Exclusions             - %d (type `exclude' for details)", excluded.size()));
            }
            optionalCount(o, config, "commit_proxies", "\n  Desired Commit Proxies - ");
            optionalCount(o, config, "grv_proxies", "\n  Desired GRV Proxies    - ");
            optionalCount(o, config, "resolvers", "\n  Desired Resolvers      - ");
            optionalCount(o, config, "logs", "\n  Desired Logs           - ");
            optionalCount(o, config, "remote_logs", "\n  Desired Remote Logs    - ");
            optionalCount(o, config, "log_routers", "\n  Desired Log Routers    - ");
            Long tss = integer(config, "tss_count");
            if (tss != null && tss > 0) {
                Long active = integer(cluster, "active_tss_count");
                o.append(String.format("\n  TSS                    - %d/%d", active == null ? 0 : active, tss));
                String tssEngine = string(config, "tss_storage_engine");
                if (tssEngine != null) {
                    o.append("\n  TSS Storage Engine     - ").append(tssEngine);
                }
            }
            o.append("\n  Usable Regions         - ").append(orUnknown(integer(config, "usable_regions")));
            List<Object> regions = array(config, "regions");
            if (regions != null) {
                o.append("\n  Regions: ");
                for (Object region : regions) {
                    regionLines(o, region, activePrimary);
                }
            }
        } catch (Unreadable e) {
            o.setLength(mark);
            o.append("\n  Unable to retrieve configuration status");
        }
        return oldMemory;
    }

    private static void regionLines(StringBuilder o, Object region, String activePrimary) {
        boolean primary = false;
        String regionDc = "";
        List<String> satellites = new ArrayList<>();
        for (Object dc : required(array(region, "datacenters"), "datacenters")) {
            String id = required(string(dc, "id"), "id");
            if (StatusDocument.at(dc, "satellite") == null) {
                regionDc = id;
                primary |= id.equals(activePrimary);
            } else if (Long.valueOf(1).equals(integer(dc, "satellite"))) {
                satellites.add(id);
            }
        }
        o.append(activePrimary == null ? "\n    Region -" : primary ? "\n    Primary -" : "\n    Remote -");
        o.append("\n        Datacenter                    - ").append(regionDc);
        if (!satellites.isEmpty()) {
            o.append("\n        Satellite datacenters         - ").append(String.join(", ", satellites));
        }
        String mode = string(region, "satellite_redundancy_mode");
        if (mode != null) {
            o.append("\n        Satellite Redundancy Mode     - ").append(mode);
        }
        optionalCount(o, region, "satellite_anti_quorum", "\n        Satellite Anti Quorum         - ");
        optionalCount(o, region, "satellite_logs", "\n        Satellite Logs                - ");
        String policy = string(region, "satellite_log_policy");
        if (policy != null) {
            o.append("\n        Satellite Log Policy          - ").append(policy);
        }
        optionalCount(o, region, "satellite_log_replicas", "\n        Satellite Log Replicas        - ");
        optionalCount(o, region, "satellite_usable_dcs", "\n        Satellite Usable DCs          - ");
    }

    private void clusterSection(StringBuilder o, Map<String, Object> cluster, Map<String, Object> processes) {
        o.append("\n\nCluster:");
        int mark = o.length();
        try {
            o.append("\n  FoundationDB processes - ");
            boolean machinesAreZones = true;
            Map<String, Boolean> zones = new TreeMap<>();
            if (object(cluster, "processes") != null) {
                o.append(processes.size());
                int errors = 0;
                int excludedCount = 0;
                for (Object p : processes.values()) {
                    boolean excluded = Boolean.TRUE.equals(bool(p, "excluded"));
                    if (excluded) {
                        excludedCount++;
                    }
                    List<Object> messages = array(p, "messages");
                    if (messages != null && !messages.isEmpty()) {
                        errors++;
                    }
                    String zoneId = string(p, "locality.zoneid");
                    if (zoneId != null) {
                        String machineId = string(p, "locality.machineid");
                        if (!zoneId.equals(machineId)) {
                            machinesAreZones = false;
                        }
                        zones.merge(zoneId, !excluded, Boolean::logicalOr);
                    }
                }
                if (errors > 0 || excludedCount > 0) {
                    o.append(String.format(" (less %d excluded; %d with errors)", excludedCount, errors));
                }
            } else {
                o.append("unknown");
            }
            if (!zones.isEmpty()) {
                o.append("\n  Zones                  - ").append(zones.size());
                long zoneExclusions = zones.values().stream().filter(v -> !v).count();
                if (zoneExclusions > 0) {
                    o.append(String.format(" (less %d excluded)", zoneExclusions));
                }
            } else {
                o.append("\n  Zones                  - unknown");
            }
            Map<String, Object> machines = object(cluster, "machines");
            o.append("\n  Machines               - ");
            if (machines != null) {
                o.append(machines.size());
                long machineExclusions = machines.values().stream().filter(m -> Boolean.TRUE.equals(bool(m, "excluded"))).count();
                if (machineExclusions > 0) {
                    o.append(String.format(" (less %d excluded)", machineExclusions));
                }
                long least = Long.MAX_VALUE;
                for (Object p : processes.values()) {
                    Long available = integer(p, "memory.available_bytes");
                    if (available != null) {
                        least = Math.min(least, available);
                    }
                }
                if (least < Long.MAX_VALUE) {
                    o.append("\n  Memory availability    - ").append(String.format(Locale.ROOT,
                            "%.1f GB per process on machine with least available", least / (1024.0 * 1024 * 1024)));
                    if (least < 4294967296L) {
                        o.append("\n                           >>>>> (WARNING: 4.0 GB recommended) <<<<<");
                    }
                }
                double retransmissions = 0;
                for (Object m : machines.values()) {
                    Double hz = real(m, "network.tcp_segments_retransmitted.hz");
                    if (hz != null) {
                        retransmissions += hz;
                    }
                }
                if (retransmissions > 0) {
                    o.append(String.format("\n  Retransmissions rate   - %d Hz", Math.round(retransmissions)));
                }
            } else {
                o.append("unknown");
            }
            Map<String, Object> faultTolerance = object(cluster, "fault_tolerance");
            if (faultTolerance != null) {
                Long availability = integer(faultTolerance, "max_zone_failures_without_losing_availability");
                Long data = integer(faultTolerance, "max_zone_failures_without_losing_data");
                if (availability != null && data != null) {
                    o.append("\n  Fault Tolerance        - ").append(Math.min(availability, data)).append(' ')
                            .append(machinesAreZones ? "machine" : "zone").append('s');
                    if (data > availability) {
                        o.append(String.format(" (%d without data loss)", data));
                    }
                    if (data == -1) {
                        o.append("\n\n  Warning: the database may have data loss and availability loss. Please restart "
                                + "following tlog interfaces, otherwise storage servers may never be able to catch up.\n");
                    }
                }
            }
            String serverTime = date(cluster, "cluster_controller_timestamp");
            if (!serverTime.isEmpty()) {
                o.append("\n  Server time            - ").append(serverTime);
            }
        } catch (Unreadable e) {
            o.setLength(mark);
            o.append("\n  Unable to retrieve cluster status");
        }
    }

    private static void dataSection(StringBuilder o, Map<String, Object> cluster) {
        Map<String, Object> data = objectOrEmpty(cluster, "data");
        o.append("\n\nData:");
        int mark = o.length();
        try {
            o.append("\n  Replication health     - ");
            Map<String, Object> state = objectOrEmpty(data, "state");
            String name = string(state, "name");
            String description = string(state, "description");
            description = description == null ? "" : description;
            Boolean healthy = bool(state, "healthy");
            if (Boolean.TRUE.equals(healthy)) {
                o.append("Healthy").append(description.isEmpty() ? "" : " (" + description + ")");
            } else if ("missing_data".equals(name)) {
                o.append("UNHEALTHY").append(description.isEmpty() ? "" : ": " + description);
            } else if ("healing".equals(name)) {
                o.append("HEALING").append(description.isEmpty() ? "" : ": " + description);
            } else if (!description.isEmpty()) {
                o.append(description);
            } else {
                o.append("unknown");
            }
            Map<String, Object> moving = object(data, "moving_data");
            Double queued = moving == null ? null : real(moving, "in_queue_bytes");
            Double inFlight = moving == null ? null : real(moving, "in_flight_bytes");
            if (moving != null) {
                if (queued != null && inFlight != null) {
                    o.append(String.format(Locale.ROOT, "\n  Moving data            - %.3f GB", (queued + inFlight) / 1e9));
                }
            } else if ("initializing".equals(name)) {
                o.append("\n  Moving data            - unknown (initializing)");
            } else {
                o.append("\n  Moving data            - unknown");
            }
            o.append("\n  Sum of key-value sizes - ").append(size(integer(data, "total_kv_size_bytes")));
            o.append("\n  Disk space used        - ").append(size(integer(data, "total_disk_used_bytes")));
        } catch (Unreadable e) {
            o.setLength(mark);
            o.append("\n  Unable to retrieve data status");
        }

        StringBuilder wiggle = new StringBuilder();
        try {
            Map<String, Object> wiggler = object(cluster, "storage_wiggler");
            if (wiggler != null) {
                List<Object> addresses = array(wiggler, "wiggle_server_addresses");
                if (addresses != null) {
                    wiggle.append("\n  Wiggle server addresses-");
                    for (Object a : addresses) {
                        wiggle.append(' ').append(a);
                    }
                }
                wiggle.append("\n  Wiggle server count    - ").append(addresses == null ? 0 : addresses.size());
            }
        } catch (Unreadable e) {
            wiggle.append("\n  Unable to retrieve storage wiggler status");
        }
        if (wiggle.length() > 0) {
            o.append("\n\nStorage wiggle:").append(wiggle);
        }

        o.append("\n\nOperating space:");
        StringBuilder space = new StringBuilder();
        try {
            Long storage = integer(data, "least_operating_space_bytes_storage_server");
            if (storage != null) {
                space.append(String.format(Locale.ROOT, "\n  Storage server         - %.1f GB free on most full server",
                        Math.max(storage / 1e9, 0.0)));
            }
            Long log = integer(data, "least_operating_space_bytes_log_server");
            if (log != null) {
                space.append(String.format(Locale.ROOT, "\n  Log server             - %.1f GB free on most full server",
                        Math.max(log / 1e9, 0.0)));
            }
        } catch (Unreadable e) {
            space.setLength(0);
        }
        o.append(space.length() > 0 ? space : "\n  Unable to retrieve operating space status");
    }

    /** The Workload section; answers whether some process is both a log and a storage server. */
    private static boolean workloadSection(StringBuilder o, Map<String, Object> cluster, Map<String, Object> processes) {
        o.append("\n\nWorkload:");
        int mark = o.length();
        boolean foundLogAndStorage = false;
        try {
            Map<String, Object> workload = objectOrEmpty(cluster, "workload");
            String limited = "";
            try {
                Map<String, Object> limit = object(cluster, "qos.performance_limited_by");
                String name = required(string(limit, "name"), "name");
                if (!name.equals("workload")) {
                    String description = required(string(limit, "description"), "description");
                    String serverId = string(limit, "reason_server_id");
                    serverId = serverId == null ? "" : serverId;
                    String address = processAddress(processes, serverId);
                    limited = String.format("\n  Performance limited by %s: %s", address.equals("unknown")
                            ? "server" + (serverId.isEmpty() ? "" : " " + serverId) : "process", description);
                    if (!address.equals("unknown")) {
                        limited += "\n  Most limiting process: " + address;
                    }
                }
            } catch (RuntimeException e) {
                // fdbcli ignores anything unreadable here
            }
            o.append("\n  Read rate              - ").append(rate(workload, "operations", "reads.hz"));
            o.append("\n  Write rate             - ").append(rate(workload, "operations", "writes.hz"));
            o.append("\n  Transactions started   - ").append(rate(workload, "transactions", "started.hz"));
            o.append("\n  Transactions committed - ").append(rate(workload, "transactions", "committed.hz"));
            o.append("\n  Conflict rate          - ").append(rate(workload, "transactions", "conflicted.hz"));
            o.append(limited);
            List<String> cannotUpdate = new ArrayList<>();
            for (Object p : processes.values()) {
                boolean storage = false;
                boolean log = false;
                for (Object role : listOrEmpty(p, "roles")) {
                    String r = required(string(role, "role"), "role");
                    storage |= r.equals("storage");
                    log |= r.equals("log");
                }
                foundLogAndStorage |= storage && log;
                for (Object m : listOrEmpty(p, "messages")) {
                    String address = string(p, "address");
                    if ("Unable to update cluster file.".equals(string(m, "description")) && address != null) {
                        cannotUpdate.add(address);
                    }
                }
            }
            if (!cannotUpdate.isEmpty()) {
                o.append(String.format("\n\n%d FoundationDB processes reported unable to update cluster file:",
                        cannotUpdate.size()));
                for (String a : cannotUpdate) {
                    o.append("\n  ").append(a);
                }
            }
        } catch (Unreadable e) {
            o.setLength(mark);
            o.append("\n  Unable to retrieve workload status");
        }
        return foundLogAndStorage;
    }

    private static void backupSection(StringBuilder o, Map<String, Object> cluster, boolean detailed) {
        Map<String, String> backups = runningTags(cluster, "backup");
        Map<String, String> drPrimary = runningTags(cluster, "dr_backup");
        Map<String, String> drSecondary = runningTags(cluster, "dr_backup_dest");
        o.append("\n\nBackup and DR:");
        o.append("\n  Running backups        - ").append(backups.size());
        o.append("\n  Running DRs            - ");
        if (drPrimary.isEmpty() && drSecondary.isEmpty()) {
            o.append(0);
        } else {
            if (!drPrimary.isEmpty()) {
                o.append(drPrimary.size()).append(" as primary").append(drSecondary.isEmpty() ? "" : ", ");
            }
            if (!drSecondary.isEmpty()) {
                o.append(drSecondary.size()).append(" as secondary");
            }
        }
        if (detailed) {
            tagLines(o, "Running backup tags", backups);
            tagLines(o, "Running DR tags (as primary)", drPrimary);
            tagLines(o, "Running DR tags (as secondary)", drSecondary);
        }
    }

    private static Map<String, String> runningTags(Map<String, Object> cluster, String context) {
        Map<String, String> tags = new TreeMap<>(Json.KEY_ORDER);
        try {
            Map<String, Object> all = object(cluster, "layers." + context + ".tags");
            for (Map.Entry<String, Object> tag : all == null ? Map.<String, Object>of().entrySet() : all.entrySet()) {
                if (Boolean.TRUE.equals(bool(tag.getValue(), "running_backup"))) {
                    String id = string(tag.getValue(), "mutation_stream_id");
                    tags.put(tag.getKey(), id == null ? "" : id);
                }
            }
        } catch (Unreadable e) {
            // fdbcli's tryGet: an unreadable tag list counts as none
        }
        return tags;
    }

    private static void tagLines(StringBuilder o, String title, Map<String, String> tags) {
        if (!tags.isEmpty()) {
            o.append("\n\n").append(title).append(':');
            tags.forEach((tag, id) -> {
                o.append(String.format("\n  %-22s", tag));
                if (!id.isEmpty()) {
                    o.append(" - ").append(id);
                }
            });
        }
    }

    private static void processDetails(StringBuilder o, Map<String, Object> cluster, Map<String, Object> processes) {
        o.append("\n\nProcess performance details:");
        int mark = o.length();
        try {
            Map<String, Object> machines = objectOrEmpty(cluster, "machines");
            // fdbcli orders by network address (IP, then port) and puts unparsable ones last.
            Map<long[], String> lines = new TreeMap<>(Comparator.<long[]>comparingLong(k -> k[0])
                    .thenComparingLong(k -> k[1]).thenComparingLong(k -> k[2]));
            long sequence = 0;
            for (Object p : processes.values()) {
                String address = string(p, "address");
                address = address == null ? "" : address;
                long[] order = addressOrder(address);
                if (order == null) {
                    lines.put(new long[] {Long.MAX_VALUE, Long.MAX_VALUE, sequence++},
                            String.format("  %-22s (invalid IP address or port)", address));
                    continue;
                }
                String line;
                try {
                    line = processLine(p, address, machines);
                } catch (Unreadable e) {
                    line = String.format("  %-22s (no metrics available)", address);
                }
                lines.put(order, line);
            }
            for (String line : lines.values()) {
                o.append("\n").append(line);
            }
        } catch (Unreadable e) {
            o.setLength(mark);
            o.append("\n  Unable to retrieve process performance details");
        }
    }

    private static String processLine(Object p, String address, Map<String, Object> machines) {
        double tx = -1;
        double rx = -1;
        double machineCpu = -1;
        String machineId = required(string(p, "machine_id"), "machine_id");
        // Looked up by id, not as a dotted path (fdbcli passes split = false here).
        Object machine = machines.get(machineId);
        if (machine instanceof Map<?, ?> && object(machine, "cpu") != null) {
            Double utilization = real(machine, "cpu.logical_core_utilization");
            machineCpu = utilization == null ? -1 : utilization;
            if (object(machine, "network") != null) {
                Double sent = real(machine, "network.megabits_sent.hz");
                Double received = real(machine, "network.megabits_received.hz");
                tx = sent == null ? -1 : sent;
                rx = received == null ? -1 : received;
            }
        }
        StringBuilder line = new StringBuilder(String.format("  %-22s (", address));
        Double cores = real(p, "cpu.usage_cores");
        if (cores != null) {
            line.append(String.format(Locale.ROOT, "%3.0f%% cpu;", cores * 100));
        }
        if (machineCpu != -1) {
            line.append(String.format(Locale.ROOT, "%3.0f%% machine;", machineCpu * 100));
        }
        if (Math.min(tx, rx) != -1) {
            line.append(String.format(Locale.ROOT, "%6.3f Gbps;", Math.max(tx, rx) / 1000.0));
        }
        Double busy = real(p, "disk.busy");
        if (busy != null) {
            line.append(String.format(Locale.ROOT, "%3.0f%% disk IO;", 100.0 * busy));
        }
        Long rss = integer(p, "memory.rss_bytes");
        if (rss != null && rss != -1) {
            line.append(String.format(Locale.ROOT, "%4.1f GB", rss / (1024.0 * 1024 * 1024)));
        }
        Double available = real(p, "memory.available_bytes");
        line.append(available != null
                ? String.format(Locale.ROOT, " / %3.1f GB RAM  )", available / (1024.0 * 1024 * 1024)) : "  )");
        for (Object m : listOrEmpty(p, "messages")) {
            String description = string(m, "description");
            if (description != null) {
                line.append(StatusDocument.at(m, "type") != null ? "\n    Last logged error: " : "\n    ").append(description);
            }
        }
        return line.toString();
    }

    /** An IPv4 {@code a.b.c.d:port[:tls]} as (address, port, 0) for ordering, or null when it is not one. */
    static long[] addressOrder(String address) {
        String a = address.endsWith(":tls") ? address.substring(0, address.length() - 4) : address;
        int colon = a.lastIndexOf(':');
        if (colon < 0) {
            return null;
        }
        try {
            String[] octets = a.substring(0, colon).split("\\.", -1);
            int port = Integer.parseInt(a.substring(colon + 1));
            if (octets.length != 4 || port < 0 || port > 65535) {
                return null;
            }
            long ip = 0;
            for (String octet : octets) {
                int v = Integer.parseInt(octet);
                if (v < 0 || v > 255) {
                    return null;
                }
                ip = ip * 256 + v;
            }
            return new long[] {ip, port, 0};
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static String processAddress(Map<String, Object> processes, String serverId) {
        if (serverId.isEmpty()) {
            return "unknown";
        }
        for (Object p : processes.values()) {
            try {
                for (Object role : listOrEmpty(p, "roles")) {
                    String id = string(role, "id");
                    if (id != null && id.startsWith(serverId)) {
                        String address = string(p, "address");
                        if (address != null) {
                            return address;
                        }
                    }
                }
            } catch (Unreadable e) {
                // a badly formed process is skipped, as fdbcli does
            }
        }
        return "unknown";
    }

    private static String rate(Map<String, Object> workload, String group, String path) {
        Map<String, Object> g = object(workload, group);
        if (g == null) {
            return "unknown";
        }
        Double value = real(g, path);
        return value == null ? "unknown" : Math.round(value) + " Hz";
    }

    private static String coordinatorsInfo(Map<String, Object> doc) {
        try {
            StringBuilder sb = new StringBuilder();
            for (Object c : required(array(doc, "client.coordinators.coordinators"), "coordinators")) {
                sb.append("\n  ").append(required(string(c, "address"), "address")).append("  (")
                        .append(required(bool(c, "reachable"), "reachable") ? "reachable" : "unreachable").append(')');
            }
            return sb.toString();
        } catch (Unreadable e) {
            return "\n  Unable to retrieve list of coordination servers";
        }
    }

    private static String size(Long bytes) {
        if (bytes == null) {
            return "unknown";
        }
        double b = bytes;
        if (b >= 1e12) {
            return String.format(Locale.ROOT, "%.3f TB", b / 1e12);
        }
        if (b >= 1e9) {
            return String.format(Locale.ROOT, "%.3f GB", b / 1e9);
        }
        return Math.round(b / 1e6) + " MB";
    }

    private String date(Map<String, Object> object, String key) {
        Double seconds = real(object, key);
        if (seconds == null) {
            return "";
        }
        return DATE.format(Instant.ofEpochSecond(seconds.longValue()).atZone(zone));
    }

    private static void optionalCount(StringBuilder o, Object object, String key, String label) {
        Long v = integer(object, key);
        if (v != null) {
            o.append(label).append(v);
        }
    }

    private static String orUnknown(Object value) {
        return value == null ? "unknown" : value.toString();
    }

    private static List<Object> listOrEmpty(Object root, String path) {
        List<Object> l = array(root, path);
        return l == null ? List.of() : l;
    }
}
