package dev.cryo.console.client;

import dev.cryo.contracts.event.TableScanned;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import java.time.Instant;
import java.util.List;

/** scanner-svc's REST API, as far as the console uses it. */
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
public interface ScannerApi {

    /**
     * A table the scanner knows.
     *
     * @param lastScannedAt when its last scan finished (null: never scanned)
     * @param lastScanSource the change source that led to it ({@code commit-report}, {@code watcher}, {@code manual}, …)
     * @param pending true while a change waits for a scan
     */
    record ScannedTable(String table, Instant lastScannedAt, String lastScanSource, Long lastSnapshotId,
                        boolean pending, String lastError, Instant lastErrorAt, Instant orphansListedAt) {
    }

    /** A scan request: "fix now". */
    record ScanRequest(String table) {
    }

    /** The TableChanged the scanner published for a request; its id is the correlation id of what follows. */
    record ChangeAccepted(String eventId, String table) {
    }

    @GET
    @Path("/tables")
    List<ScannedTable> tables();

    @GET
    @Path("/tables/{table}/scan")
    TableScanned lastScan(@PathParam("table") String table);

    @POST
    @Path("/scans")
    @Consumes(MediaType.APPLICATION_JSON)
    ChangeAccepted scan(@HeaderParam("Authorization") String authorization, ScanRequest request);
}
