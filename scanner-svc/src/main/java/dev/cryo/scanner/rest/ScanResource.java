package dev.cryo.scanner.rest;

import dev.cryo.contracts.TableId;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.ChangeSource;
import dev.cryo.contracts.event.TableChanged;
import dev.cryo.platform.error.CryoException;
import dev.cryo.platform.security.Actors;
import dev.cryo.platform.security.Roles;
import dev.cryo.scanner.messaging.ChangePublisher;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.time.Clock;

/** "Fix now": an operator asks for a scan of one table; the operator is the actor of the whole chain. */
@Path("/api/v1/scans")
public class ScanResource {

    private final ChangePublisher publisher;
    private final KnownTables tables;
    private final SecurityIdentity identity;
    private final Clock clock;

    ScanResource(ChangePublisher publisher, KnownTables tables, SecurityIdentity identity, Clock clock) {
        this.publisher = publisher;
        this.tables = tables;
        this.identity = identity;
        this.clock = clock;
    }

    @POST
    @RolesAllowed(Roles.OPERATOR)
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response scan(ScanRequest request) {
        if (request == null || request.table() == null || request.table().isBlank()) {
            throw CryoException.invalid("Cannot scan: the body must name a table, {\"table\": \"catalog.namespace.table\"}");
        }
        TableId table = tables.existing(request.table());
        EventEnvelope<TableChanged> published = publisher.publish(new TableChanged(table, ChangeSource.MANUAL,
                clock.instant(), null, null, null, null, null, null, Actors.of(identity)));
        return Response.accepted(new ChangeAccepted(published.id(), table.toString())).build();
    }
}
