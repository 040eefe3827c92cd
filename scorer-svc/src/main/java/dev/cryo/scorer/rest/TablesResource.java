package dev.cryo.scorer.rest;

import dev.cryo.contracts.Grade;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.Severity;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.Deduction;
import dev.cryo.contracts.event.GradeChanged;
import dev.cryo.contracts.event.TableGraded;
import dev.cryo.platform.error.CryoException;
import dev.cryo.scorer.ScorerErrorCode;
import dev.cryo.scorer.config.ScorerConfig;
import dev.cryo.scorer.persistence.CurrentRow;
import dev.cryo.scorer.persistence.CurrentGrades;
import dev.cryo.scorer.persistence.GradeStore;
import dev.cryo.scorer.persistence.StoredGrading;
import dev.cryo.scorer.persistence.TableQuery;
import dev.cryo.scoring.CheckPolicy;
import dev.cryo.scoring.LimitUnit;
import dev.cryo.scoring.PolicyBook;
import dev.cryo.scoring.Scorer;
import dev.cryo.scoring.Setting;
import dev.cryo.scoring.Sourced;
import dev.cryo.scoring.TablePolicy;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Current grades, grade history and effective policies. Reads only, open to every caller. */
@Path("/api/v1/tables")
@Produces(MediaType.APPLICATION_JSON)
public class TablesResource {

    private final GradeStore store;
    private final CurrentGrades currentGrades;
    private final PolicyBook policies;
    private final ScorerConfig.Api config;

    TablesResource(GradeStore store, CurrentGrades currentGrades, PolicyBook policies, ScorerConfig config) {
        this.store = store;
        this.currentGrades = currentGrades;
        this.policies = policies;
        this.config = config.api();
    }

    /** Every graded table with its current grade, score and worst deduction. */
    @GET
    public TablePage list(@QueryParam("grade") List<String> grades, @QueryParam("catalog") String catalog,
                          @QueryParam("namespace") String namespace, @QueryParam("sort") String sort,
                          @QueryParam("order") String order, @QueryParam("limit") Integer limit,
                          @QueryParam("offset") Integer offset) {
        TableQuery.Sort sortBy = parseSort(sort);
        TableQuery.Direction direction = parseOrder(order, sortBy);
        int pageLimit = limit(limit, config.pageLimit());
        int skip = offset == null ? 0 : offset;
        if (skip < 0) {
            throw invalidQuery("offset must not be negative, was " + skip);
        }
        TableQuery query = new TableQuery(grades.stream().flatMap(value -> Arrays.stream(value.split(",")))
                .map(String::trim).filter(value -> !value.isEmpty()).map(TablesResource::parseGrade).toList(),
                blankToNull(catalog), blankToNull(namespace), sortBy, direction, pageLimit, skip);
        CurrentGrades.Page page = currentGrades.list(query);
        return new TablePage(page.total(), pageLimit, skip, page.tables().stream().map(TablesResource::summary).toList());
    }

    /** A table's current grade with every deduction and not-evaluated check. */
    @GET
    @Path("/{tableId}")
    public TableGradeView current(@PathParam("tableId") String tableId) {
        TableId table = parseTable(tableId);
        return view(store.current(table).orElseThrow(() -> notGraded(table)));
    }

    /** A table's grades over time, newest scan first. */
    @GET
    @Path("/{tableId}/history")
    public List<TableGradeView> history(@PathParam("tableId") String tableId, @QueryParam("limit") Integer limit) {
        TableId table = parseTable(tableId);
        List<StoredGrading> history = store.history(table, limit(limit, config.historyLimit()));
        if (history.isEmpty()) {
            throw notGraded(table);
        }
        return history.stream().map(TablesResource::view).toList();
    }

    /** The policy the table's last scan was graded with, and where each value came from. */
    @GET
    @Path("/{tableId}/policy")
    public PolicyView policy(@PathParam("tableId") String tableId) {
        TableId table = parseTable(tableId);
        StoredGrading last = store.current(table).orElseThrow(() -> notGraded(table));
        TablePolicy policy = policies.effectiveFor(table, last.properties());
        long dataBytes = last.dataBytes();
        return new PolicyView(table.toString(), policies.patternFor(table).orElse(null), last.graded().scanId(), dataBytes,
                Scorer.sizeScale(dataBytes), policy.inOrder().stream().map(check -> checkView(check, dataBytes)).toList(),
                policy.problems());
    }

    private static PolicyView.CheckView checkView(CheckPolicy policy, long dataBytes) {
        LimitUnit unit = policy.spec().unit();
        Sourced<Boolean> enabled = policy.enabled();
        boolean bytes = policy.spec().hasByteLimits();
        LimitUnit measured = Scorer.measuredUnit(policy.check());
        return new PolicyView.CheckView(policy.check(), policy.check().fixedBy(), unit.id(),
                new PolicyView.Value<>(enabled.value(), enabled.value().toString(), enabled.source().toString(),
                        enabled.key()),
                limit(policy, Setting.WARNING, unit),
                limit(policy, Setting.CRITICAL, unit),
                bytes ? limit(policy, Setting.WARNING_BYTES, LimitUnit.BYTES) : null,
                bytes ? limit(policy, Setting.CRITICAL_BYTES, LimitUnit.BYTES) : null,
                measured.id(),
                Scorer.effectiveLimit(policy, Severity.WARNING, dataBytes).orElse(null),
                Scorer.effectiveLimit(policy, Severity.CRITICAL, dataBytes).orElse(null));
    }

    private static PolicyView.Value<Double> limit(CheckPolicy policy, Setting setting,
                                                    LimitUnit unit) {
        Optional<Sourced<Double>> limit = policy.limit(setting);
        return limit.map(value -> new PolicyView.Value<>(value.value(), unit.format(value.value()),
                        value.source().toString(), value.key()))
                .orElseGet(() -> new PolicyView.Value<>(null, "none", "default", null));
    }

    private static TableSummary summary(CurrentRow row) {
        return new TableSummary(row.table().toString(), row.table().catalog(), row.table().namespaceName(), row.grade(),
                row.score(), row.deductions().isEmpty() ? null : row.deductions().get(0), row.scanId(), row.snapshotId(),
                row.scannedAt(), row.gradedAt());
    }

    private static TableGradeView view(StoredGrading stored) {
        TableGraded graded = stored.graded();
        return new TableGradeView(graded.table().toString(), graded.grade(), graded.score(),
                stored.change().map(GradeChanged::previousGrade).orElse(null), stored.change().isPresent(),
                graded.sizeScale(), graded.scanId(), graded.snapshotId(), stored.scannedAt(), graded.gradedAt(),
                Operation.inFixedOrder(graded.deductions().stream().map(Deduction::fix).toList()),
                graded.deductions(), graded.notEvaluated(), graded.held(), stored.correlationId(), stored.actor());
    }

    private int limit(Integer requested, int byDefault) {
        int value = requested == null ? byDefault : requested;
        if (value < 1 || value > config.maxLimit()) {
            throw invalidQuery("limit must be within 1.." + config.maxLimit() + " (cryo.scorer.api.max-limit), was " + value);
        }
        return value;
    }

    private static TableId parseTable(String tableId) {
        try {
            return TableId.parse(tableId);
        } catch (IllegalArgumentException e) {
            throw new CryoException(ScorerErrorCode.INVALID_TABLE_ID, e.getMessage(), e);
        }
    }

    private static TableQuery.Sort parseSort(String sort) {
        if (sort == null || sort.isBlank()) {
            return TableQuery.Sort.SCORE;
        }
        return Arrays.stream(TableQuery.Sort.values()).filter(value -> value.parameter().equals(sort)).findFirst()
                .orElseThrow(() -> invalidQuery("sort must be one of score, table, gradedAt, was '" + sort + "'"));
    }

    /** Worst scores first, tables alphabetically, newest gradings first, unless asked otherwise. */
    private static TableQuery.Direction parseOrder(String order, TableQuery.Sort sort) {
        if (order == null || order.isBlank()) {
            return sort == TableQuery.Sort.GRADED_AT ? TableQuery.Direction.DESC : TableQuery.Direction.ASC;
        }
        return switch (order.toLowerCase(Locale.ROOT)) {
            case "asc" -> TableQuery.Direction.ASC;
            case "desc" -> TableQuery.Direction.DESC;
            default -> throw invalidQuery("order must be asc or desc, was '" + order + "'");
        };
    }

    private static Grade parseGrade(String grade) {
        try {
            return Grade.valueOf(grade.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw invalidQuery("grade must be one of A, B, C, D, F, was '" + grade + "'");
        }
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }

    private static CryoException notGraded(TableId table) {
        return new CryoException(ScorerErrorCode.TABLE_NOT_GRADED, "Cannot find a grade of table " + table
                + ": the scorer has not graded it; it is graded when the scanner publishes a scan of it");
    }

    private static CryoException invalidQuery(String reason) {
        return new CryoException(ScorerErrorCode.INVALID_QUERY, "Cannot answer the request: " + reason);
    }
}
