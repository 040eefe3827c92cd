package dev.cryo.scanner.rest;

import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.TableChanged;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.platform.security.Actors;
import dev.cryo.platform.security.Roles;
import dev.cryo.scanner.config.ScannerConfig;
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

/**
 * The webhook: a catalog, an orchestrator or a writer tells the scanner that a table changed
 * ({@code {catalog, namespace, table, snapshotId?}}); unknown fields are ignored.
 */
@Path("/api/v1/notifications")
public class NotificationResource {

    private final ChangePublisher publisher;
    private final CatalogRegistry catalogs;
    private final ScannerConfig config;
    private final SecurityIdentity identity;
    private final Clock clock;

    NotificationResource(ChangePublisher publisher, CatalogRegistry catalogs, ScannerConfig config,
                         SecurityIdentity identity, Clock clock) {
        this.publisher = publisher;
        this.catalogs = catalogs;
        this.config = config;
        this.identity = identity;
        this.clock = clock;
    }

    @POST
    @RolesAllowed(Roles.OPERATOR)
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response notify(String body) {
        TableChanged change = new NotificationParser(config.maxNotificationBytes(), catalogs.names())
                .parse(body, clock.instant(), Actors.of(identity));
        EventEnvelope<TableChanged> published = publisher.publish(change);
        return Response.accepted(new ChangeAccepted(published.id(), change.table().toString())).build();
    }

}
