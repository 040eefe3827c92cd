package dev.cryo.scanner.rest;

import dev.cryo.contracts.TableId;
import dev.cryo.platform.error.CryoException;
import dev.cryo.platform.security.Actors;
import dev.cryo.platform.security.Roles;
import dev.cryo.scanner.ScannerErrorCode;
import dev.cryo.scanner.persistence.TableStateStore;
import dev.cryo.scanner.persistence.TableSummary;
import dev.cryo.scanner.watch.OrphanListings;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.util.List;

/** The tables the scanner knows: last scan time and source, last error, the last scan itself. */
@Path("/api/v1/tables")
@Produces(MediaType.APPLICATION_JSON)
public class TablesResource {

    private final TableStateStore store;
    private final KnownTables tables;
    private final OrphanListings orphans;
    private final SecurityIdentity identity;

    TablesResource(TableStateStore store, KnownTables tables, OrphanListings orphans, SecurityIdentity identity) {
        this.store = store;
        this.tables = tables;
        this.orphans = orphans;
        this.identity = identity;
    }

    @GET
    public List<TableSummary> list() {
        return store.tables();
    }

    /** The last TableScanned published for the table, exactly as it went to Kafka. */
    @GET
    @Path("/{tableId}/scan")
    public Response lastScan(@PathParam("tableId") String tableId) {
        TableId table = tables.parse(tableId);
        String scan = store.lastScan(table).orElseThrow(() -> new CryoException(ScannerErrorCode.SCAN_NOT_FOUND,
                "Cannot find a scan of " + table + ": it was never scanned; ask for one with POST /api/v1/scans"));
        return Response.ok(scan, MediaType.APPLICATION_JSON_TYPE).build();
    }

    /** Lists the table location for orphan files now (in the background); the next scan carries the counts. */
    @POST
    @Path("/{tableId}/orphan-listing")
    @RolesAllowed(Roles.OPERATOR)
    public Response listOrphans(@PathParam("tableId") String tableId) {
        TableId table = tables.existing(tableId);
        orphans.listSoon(table, Actors.of(identity));
        return Response.accepted(new ChangeAccepted(null, table.toString())).build();
    }
}
