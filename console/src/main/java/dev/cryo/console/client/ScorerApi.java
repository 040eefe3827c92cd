package dev.cryo.console.client;

import dev.cryo.contracts.Grade;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.event.Deduction;
import dev.cryo.contracts.event.HeldFinding;
import dev.cryo.contracts.event.NotEvaluated;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.time.Instant;
import java.util.List;

/** scorer-svc's REST API, as far as the console uses it. */
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
public interface ScorerApi {

    /** One row of the scorer's listing: a table's current grade and its worst deduction. */
    record GradedTable(String table, String catalog, String namespace, Grade grade, int score, Deduction topDeduction,
                       String scanId, Long snapshotId, Instant scannedAt, Instant gradedAt) {
    }

    record GradedTables(long total, int limit, int offset, List<GradedTable> tables) {
        public GradedTables {
            tables = tables == null ? List.of() : List.copyOf(tables);
        }
    }

    /** A table's grade in full, or one entry of its history. */
    record TableGrade(String table, Grade grade, int score, Grade previousGrade, boolean gradeChanged,
                      double sizeScale, String scanId, Long snapshotId, Instant scannedAt, Instant gradedAt,
                      List<Operation> fixes, List<Deduction> deductions, List<NotEvaluated> notEvaluated,
                      List<HeldFinding> held) {
        public TableGrade {
            fixes = fixes == null ? List.of() : List.copyOf(fixes);
            deductions = deductions == null ? List.of() : List.copyOf(deductions);
            notEvaluated = notEvaluated == null ? List.of() : List.copyOf(notEvaluated);
            held = held == null ? List.of() : List.copyOf(held);
        }
    }

    /**
     * Current grades, worst first.
     *
     * @param grades only these grades, comma separated (null: every grade)
     * @param catalog only this catalog (null: any)
     * @param namespace only this namespace (null: any)
     */
    @GET
    @Path("/tables")
    GradedTables tables(@QueryParam("grade") String grades, @QueryParam("catalog") String catalog,
                        @QueryParam("namespace") String namespace, @QueryParam("limit") int limit);

    @GET
    @Path("/tables/{table}")
    TableGrade grade(@PathParam("table") String table);

    @GET
    @Path("/tables/{table}/history")
    List<TableGrade> history(@PathParam("table") String table, @QueryParam("limit") int limit);
}
