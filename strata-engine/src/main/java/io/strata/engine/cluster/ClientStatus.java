package io.strata.engine.cluster;

/**
 * What {@code Database.getClientStatus()} answers: FoundationDB 7.3's client status report
 * ({@code MultiVersionDatabase::DatabaseState::getClientStatus} around
 * {@code DatabaseContext::getClientStatus}, fdbclient/ClientStatusReport.cpp) for a client whose
 * "cluster" is the engine in this process.
 *
 * <p>Keys are written in sorted order, as json_spirit writes a {@code std::map}. The one
 * process plays coordinator, proxies and storage server, at {@link ProcessInfo#ADDRESS}; its
 * connection is reported {@code connected} — it is a call within the JVM, never down — without
 * the network counters FoundationDB keeps per peer. {@code ConnectionRecord} says how the
 * database was reached: {@code file: PATH} for a cluster file, {@code connection string: …}
 * otherwise.
 */
public final class ClientStatus {
    /** FoundationDB 7.3's protocol version, as the report prints it ({@code %llx}). */
    static final String PROTOCOL_VERSION = "fdb00b073000000";
    /** The client release whose behaviour the engine reproduces. */
    static final String RELEASE_VERSION = "7.3.68";

    private ClientStatus() {}

    /**
     * The report.
     *
     * @param process         the engine's identity
     * @param connectionString what the database was opened with
     * @param clusterFile      the cluster file it was read from, or null
     */
    public static String report(ProcessInfo process, String connectionString, String clusterFile) {
        String address = ProcessInfo.ADDRESS;
        JsonWriter w = new JsonWriter().beginObject();
        w.name("AvailableClients").beginArray().beginObject()
                .field("ProtocolVersion", PROTOCOL_VERSION)
                .field("ReleaseVersion", RELEASE_VERSION)
                .field("ThreadIndex", 0)
                .endObject().endArray();
        w.field("ConnectionRecord", clusterFile != null ? "file: " + clusterFile : "connection string: " + connectionString);
        w.name("DatabaseStatus").beginObject()
                .field("ClusterID", process.clusterId())
                .name("CommitProxies").beginArray().value(address).endArray()
                .name("Connections").beginArray().beginObject()
                .field("Address", address).field("Status", "connected")
                .endObject().endArray()
                .name("Coordinators").beginArray().value(address).endArray()
                .field("CurrentCoordinator", address)
                .name("GrvProxies").beginArray().value(address).endArray()
                .field("Healthy", true)
                .field("NumConnectionsFailed", 0)
                .name("StorageServers").beginArray().beginObject()
                .field("Address", address).field("SSID", process.storageId())
                .endObject().endArray()
                .endObject();
        w.field("Healthy", true);
        w.field("InitializationState", "created");
        w.field("ProtocolVersion", PROTOCOL_VERSION);
        return w.endObject().toString();
    }
}
