package io.strata.engine.cluster;

import com.apple.foundationdb.Database;
import io.strata.Strata;
import io.strata.engine.client.EngineDatabase;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code Database.getClientStatus()}: FoundationDB's client status report, for the engine in this process. */
class ClientStatusTest {
    @Test
    void theReportHasFoundationDbsShapeAndNamesThisProcess() {
        try (Database db = Strata.inMemory()) {
            String text = new String(db.getClientStatus().join(), StandardCharsets.UTF_8);
            Object doc = Json.parse(text);
            assertThat(Json.at(doc, "Healthy")).isEqualTo(true);
            assertThat(Json.at(doc, "InitializationState")).isEqualTo("created");
            assertThat(Json.at(doc, "ProtocolVersion")).isEqualTo("fdb00b073000000");
            assertThat(Json.at(doc, "ConnectionRecord")).isEqualTo("connection string: strata:memory");
            assertThat(Json.at(doc, "DatabaseStatus.Healthy")).isEqualTo(true);
            assertThat(Json.at(doc, "DatabaseStatus.ClusterID"))
                    .isEqualTo(((EngineDatabase) db).engine().process().clusterId());
            assertThat(Json.at(doc, "DatabaseStatus.Coordinators")).isEqualTo(List.of(ProcessInfo.ADDRESS));
            assertThat(Json.at(doc, "DatabaseStatus.NumConnectionsFailed")).isIn(0L, 0, 0.0);
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> storage = (List<Map<String, Object>>) Json.at(doc, "DatabaseStatus.StorageServers");
            assertThat(storage).singleElement().satisfies(s -> {
                assertThat(s.get("Address")).isEqualTo(ProcessInfo.ADDRESS);
                assertThat(s.get("SSID")).isEqualTo(((EngineDatabase) db).engine().process().storageId());
            });
            // json_spirit writes an object's keys in order.
            assertThat(text).startsWith("{\"AvailableClients\":[{\"ProtocolVersion\"");
        }
    }

    @Test
    void aClosedDatabaseRefusesAsFdbJavaDoes() {
        Database db = Strata.inMemory();
        db.close();
        assertThatThrownBy(db::getClientStatus).isInstanceOf(IllegalStateException.class);
    }
}
