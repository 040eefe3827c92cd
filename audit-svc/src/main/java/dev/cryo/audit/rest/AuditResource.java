package dev.cryo.audit.rest;

import dev.cryo.audit.AuditErrorCode;
import dev.cryo.audit.config.AuditConfig;
import dev.cryo.audit.domain.AuditFilter;
import dev.cryo.audit.domain.AuditRow;
import dev.cryo.audit.domain.ExportFormat;
import dev.cryo.audit.domain.PageCursor;
import dev.cryo.audit.domain.RowWriter;
import dev.cryo.audit.domain.TimelineStage;
import dev.cryo.audit.domain.AnchorCheck;
import dev.cryo.audit.domain.VerifyReport;
import dev.cryo.audit.messaging.ChainAnchors;
import dev.cryo.audit.messaging.IngestLag;
import dev.cryo.audit.persistence.AuditQueries;
import dev.cryo.audit.persistence.AuditStore;
import dev.cryo.platform.error.CryoException;
import io.quarkus.logging.Log;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/** Reading the audit log: listing, one event, a table change's timeline, exports, chain verification, ingest lag. */
@Path("/api/v1/audit")
@Produces(MediaType.APPLICATION_JSON)
public class AuditResource {

    /** A chain has a few dozen events (heartbeats included); this bounds a runaway one. */
    private static final int MAX_TIMELINE_EVENTS = 10_000;

    private final AuditStore store;
    private final AuditQueries queries;
    private final AuditConfig config;
    private final IngestLag lag;
    private final ChainAnchors anchors;
    private final Clock clock;

    AuditResource(AuditStore store, AuditQueries queries, AuditConfig config, IngestLag lag, ChainAnchors anchors, Clock clock) {
        this.anchors = anchors;
        this.store = store;
        this.queries = queries;
        this.config = config;
        this.lag = lag;
        this.clock = clock;
    }

    /** Rows that match the filter, newest first, a page at a time (pass {@code next} as {@code after}). */
    @GET
    public AuditViews.Page list(@BeanParam FilterParameters parameters, @QueryParam("limit") Integer limit,
                                @QueryParam("after") String after) {
        AuditFilter filter = parameters.toFilter("list audit rows");
        int pageSize = limit == null ? config.query().defaultLimit() : limit;
        if (pageSize < 1 || pageSize > config.query().maxLimit()) {
            throw new CryoException(AuditErrorCode.INVALID_FILTER, "Cannot list audit rows: 'limit' must be 1 to "
                    + config.query().maxLimit() + " (cryo.audit.query.max-limit), got " + pageSize);
        }
        PageCursor cursor = null;
        if (after != null && !after.isBlank()) {
            try {
                cursor = PageCursor.decode(after);
            } catch (IllegalArgumentException e) {
                throw new CryoException(AuditErrorCode.INVALID_CURSOR, e.getMessage());
            }
        }
        AuditQueries.Page page = queries.page(filter, cursor, pageSize, config.query().maxPageBytes());
        return new AuditViews.Page(page.rows().stream().map(AuditEventView::of).toList(),
                page.next() == null ? null : page.next().encode());
    }

    /** One stored event by its CloudEvents id. */
    @GET
    @Path("/events/{eventId}")
    public AuditEventView event(@PathParam("eventId") String eventId) {
        return queries.findByEventId(eventId).map(AuditEventView::of).orElseThrow(() -> new CryoException(
                AuditErrorCode.EVENT_NOT_FOUND, "Cannot find audit event " + eventId + ": no stored event has that id"));
    }

    /** Every event of one table change, oldest first: change → scan → grade → plan → admit/defer → job → result. */
    @GET
    @Path("/timeline/{correlationId}")
    public AuditViews.Timeline timeline(@PathParam("correlationId") String correlationId) {
        long maxBytes = config.query().maxPageBytes();
        AuditQueries.Bounded timeline = queries.timeline(correlationId, MAX_TIMELINE_EVENTS, maxBytes);
        List<AuditRow> rows = timeline.rows();
        if (rows.isEmpty()) {
            throw new CryoException(AuditErrorCode.TIMELINE_NOT_FOUND, "Cannot show the timeline of " + correlationId
                    + ": no stored event has that correlation id");
        }
        List<String> stages = rows.stream()
                .map(row -> TimelineStage.of(row.record().kind(), row.record().columns().eventType()))
                .distinct().sorted().map(TimelineStage::id).toList();
        String table = rows.stream().map(row -> row.record().columns().table()).filter(Objects::nonNull).findFirst()
                .orElse(null);
        String more = timeline.more() ? "the chain has more events than shown: a timeline stops at "
                + MAX_TIMELINE_EVENTS + " events or " + maxBytes + " bytes of stored events"
                + " (cryo.audit.query.max-page-bytes); page through them all, newest first, with GET /api/v1/audit?correlationId="
                + URLEncoder.encode(correlationId, StandardCharsets.UTF_8) : null;
        return new AuditViews.Timeline(correlationId, table, stages, rows.stream().map(AuditEventView::of).toList(), more);
    }

    /**
     * Every matching row in chain order, streamed as CSV or JSON Lines: the service holds one database
     * fetch (cryo.audit.export.fetch-size rows) at a time, whatever the size of the export.
     */
    @GET
    @Path("/export")
    @Produces({"text/csv", "application/x-ndjson"})
    public Response export(@BeanParam FilterParameters parameters, @QueryParam("format") @DefaultValue("jsonl") String format) {
        AuditFilter filter = parameters.toFilter("export audit rows");
        ExportFormat exportFormat;
        try {
            exportFormat = ExportFormat.fromId(format);
        } catch (IllegalArgumentException e) {
            throw new CryoException(AuditErrorCode.INVALID_FILTER, e.getMessage());
        }
        StreamingOutput body = out -> {
            Instant started = clock.instant();
            try (RowWriter writer = RowWriter.of(exportFormat, out)) {
                long rows = queries.stream(filter, config.export().fetchSize(), writer::write);
                Log.infof("Exported %d audit row(s) as %s in %d ms", rows, exportFormat.extension(),
                        Duration.between(started, clock.instant()).toMillis());
            }
        };
        String name = "cryo-audit-" + clock.instant().toString().replace(':', '-') + "." + exportFormat.extension();
        return Response.ok(body, exportFormat.mediaType())
                .header("Content-Disposition", "attachment; filename=\"" + name + "\"")
                .build();
    }

    /**
     * Recomputes the hash chain and reports the first link that does not hold, or OK with the
     * count; and checks that the chain still leads to its latest anchor outside the database.
     */
    @GET
    @Path("/verify")
    public AuditViews.Verification verify() {
        Instant started = clock.instant();
        // The anchor first: the chain read after it must contain the anchored row.
        AnchorCheck anchored = anchors.check();
        VerifyReport report = store.verify(config.verify().fetchSize(), config.verify().maxReportedBreaks());
        long millis = Duration.between(started, clock.instant()).toMillis();
        if (!report.intact()) {
            Log.errorf("Audit chain verification found %d broken link(s), the first at row %d: %s", report.breakCount(),
                    report.firstBreak().id(), report.firstBreak().problem());
        }
        if (anchored.broken()) {
            Log.errorf("Audit chain does not lead to its anchor: %s", anchored.message());
        }
        return AuditViews.Verification.of(report, anchored, millis);
    }

    /** How many records of each topic are not stored yet. */
    @GET
    @Path("/ingest")
    public AuditViews.Ingest ingest() {
        IngestLag.Snapshot snapshot;
        try {
            snapshot = lag.current();
        } catch (RuntimeException e) {
            throw new CryoException(AuditErrorCode.KAFKA_UNAVAILABLE, "Cannot report the ingest lag: " + e.getMessage(), e);
        }
        return new AuditViews.Ingest(snapshot.recordsByTopic(), snapshot.total(), snapshot.measuredAt());
    }
}
