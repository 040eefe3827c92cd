package dev.cryo.governor.rest;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.TableId;
import dev.cryo.governor.GovernorErrorCode;
import dev.cryo.governor.app.RuleChanges;
import dev.cryo.governor.domain.InvalidPolicyException;
import dev.cryo.governor.domain.MaintenanceWindow;
import dev.cryo.governor.domain.Pause;
import dev.cryo.governor.domain.PolicyRule;
import dev.cryo.governor.domain.TablePattern;
import dev.cryo.governor.persistence.JobStore;
import dev.cryo.governor.persistence.RuleStore;
import dev.cryo.governor.rest.Views.EngineRequest;
import dev.cryo.governor.rest.Views.EngineView;
import dev.cryo.governor.rest.Views.LoadView;
import dev.cryo.governor.rest.Views.PauseRequest;
import dev.cryo.governor.rest.Views.PauseView;
import dev.cryo.governor.rest.Views.PolicyRequest;
import dev.cryo.governor.rest.Views.PolicyView;
import dev.cryo.platform.error.CryoException;
import dev.cryo.platform.security.Actors;
import dev.cryo.platform.security.Roles;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.time.Clock;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

/** Pauses, policies and engine settings: anyone may read them, only operators change them. */
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class RuleResource {

    /** More slots than any engine on one cluster could use: a typo guard, not a tuning limit. */
    static final int MAX_SLOTS = 1000;
    static final int MAX_REASON_LENGTH = 1000;

    private final RuleStore rules;
    private final JobStore jobs;
    private final RuleChanges changes;
    private final SecurityIdentity identity;
    private final Clock clock;

    RuleResource(RuleStore rules, JobStore jobs, RuleChanges changes, SecurityIdentity identity, Clock clock) {
        this.rules = rules;
        this.jobs = jobs;
        this.changes = changes;
        this.identity = identity;
        this.clock = clock;
    }

    @GET
    @Path("pauses")
    public List<PauseView> pauses() {
        return rules.pauses().stream().map(RuleResource::view).toList();
    }

    @POST
    @Path("pauses")
    @RolesAllowed(Roles.OPERATOR)
    public Response pause(PauseRequest request) {
        if (request == null || request.pattern() == null) {
            throw invalid("Cannot pause: send {\"pattern\": \"catalog.namespace.*\", \"reason\": \"why\"}");
        }
        if (request.reason() == null || request.reason().isBlank() || request.reason().length() > MAX_REASON_LENGTH) {
            throw invalid("Cannot pause '" + request.pattern() + "': give a reason of 1 to " + MAX_REASON_LENGTH
                    + " characters, so other operators know why the tables wait");
        }
        Pause pause = new Pause(UUID.randomUUID().toString(), pattern(request.pattern()), request.reason().strip(),
                Actors.of(identity), clock.instant());
        List<String> revoked = changes.pause(pause);
        return Response.status(Response.Status.CREATED).entity(new Views.PauseCreated(pause.id(), pause.pattern().text(),
                pause.reason(), pause.pausedBy(), pause.pausedAt(), revoked)).build();
    }

    @DELETE
    @Path("pauses/{id}")
    @RolesAllowed(Roles.OPERATOR)
    public Response resume(@PathParam("id") String id) {
        changes.resume(id, Actors.of(identity));
        return Response.noContent().build();
    }

    /**
     * Resumes a table that failing jobs blocked: the jobs that failed before no longer count and
     * its plans are decided again at once.
     */
    @POST
    @Path("tables/{table}/resume")
    @Consumes(MediaType.WILDCARD)
    @RolesAllowed(Roles.OPERATOR)
    public Response resumeTable(@PathParam("table") String tableId) {
        TableId table;
        try {
            table = TableId.parse(tableId);
        } catch (IllegalArgumentException e) {
            throw invalid("Cannot resume '" + tableId + "': " + e.getMessage());
        }
        changes.resumeTable(table, Actors.of(identity));
        return Response.noContent().build();
    }

    @GET
    @Path("policies")
    public List<PolicyView> policies() {
        return rules.policies().stream().map(RuleResource::view).toList();
    }

    @PUT
    @Path("policies/{pattern}")
    @RolesAllowed(Roles.OPERATOR)
    public PolicyView setPolicy(@PathParam("pattern") String pattern, PolicyRequest request) {
        if (request == null) {
            throw invalid("Cannot set the policy of '" + pattern + "': send {\"cooldown\": \"PT30M\", "
                    + "\"windows\": [\"22:00-06:00 Europe/Berlin\"], \"engine\": \"trino\"} (each field optional)");
        }
        TablePattern parsed = pattern(pattern);
        Optional<Duration> cooldown = Optional.ofNullable(request.cooldown()).map(text -> {
            try {
                return Duration.parse(text);
            } catch (DateTimeParseException e) {
                throw invalid("Cannot set the policy of '" + pattern + "': cooldown '" + text
                        + "' is not an ISO-8601 duration such as PT10M");
            }
        });
        Optional<List<MaintenanceWindow>> windows = Optional.ofNullable(request.windows())
                .map(list -> validated(() -> list.stream().map(MaintenanceWindow::parse).toList()));
        Optional<Engine> engine = Optional.ofNullable(request.engine()).map(RuleResource::engine);
        PolicyRule rule = validated(() -> new PolicyRule(parsed, cooldown, windows, engine, Actors.of(identity),
                clock.instant()));
        changes.setPolicy(rule);
        return view(rule);
    }

    @DELETE
    @Path("policies/{pattern}")
    @RolesAllowed(Roles.OPERATOR)
    public Response removePolicy(@PathParam("pattern") String pattern) {
        changes.removePolicy(pattern, Actors.of(identity));
        return Response.noContent().build();
    }

    @GET
    @Path("engines")
    public List<EngineView> engines() {
        return rules.engines().stream().map(this::view).toList();
    }

    @PUT
    @Path("engines/{engine}")
    @RolesAllowed(Roles.OPERATOR)
    public EngineView setEngine(@PathParam("engine") String engineId, EngineRequest request) {
        Engine engine = engine(engineId);
        if (request == null || (request.slots() == null && request.maxForeignQueries() == null)) {
            throw invalid("Cannot set engine " + engine.id() + ": send {\"slots\": 2, \"maxForeignQueries\": 10} "
                    + "(each field optional, at least one)");
        }
        RuleStore.EngineSetting current = rules.engine(engine).orElseThrow();
        int slots = Optional.ofNullable(request.slots()).orElse(current.slots());
        int maxForeignQueries = Optional.ofNullable(request.maxForeignQueries()).orElse(current.maxForeignQueries());
        if (slots < 0 || slots > MAX_SLOTS) {
            throw invalid("Cannot set engine " + engine.id() + ": slots must be 0 to " + MAX_SLOTS + " (0 admits "
                    + "nothing), not " + slots);
        }
        if (maxForeignQueries < 0) {
            throw invalid("Cannot set engine " + engine.id() + ": maxForeignQueries must be 0 or more, not "
                    + maxForeignQueries);
        }
        changes.setEngine(engine, slots, maxForeignQueries, Actors.of(identity));
        return view(rules.engine(engine).orElseThrow());
    }

    static PauseView view(Pause pause) {
        return new PauseView(pause.id(), pause.pattern().text(), pause.reason(), pause.pausedBy(), pause.pausedAt());
    }

    private static PolicyView view(PolicyRule rule) {
        return new PolicyView(rule.pattern().text(), rule.cooldown().map(Duration::toString).orElse(null),
                rule.windows().map(windows -> windows.stream().map(MaintenanceWindow::expression).toList()).orElse(null),
                rule.engine().map(Engine::id).orElse(null), rule.updatedBy(), rule.updatedAt());
    }

    private EngineView view(RuleStore.EngineSetting setting) {
        LoadView load = setting.lastLoad().map(reading -> new LoadView(
                reading.foreignQueries().isPresent() ? reading.foreignQueries().getAsInt() : null, reading.limit(),
                reading.isOverLimit(), reading.problem().orElse(null), reading.observedAt())).orElse(null);
        return new EngineView(setting.engine().id(), setting.slots(), jobs.inUse(setting.engine()),
                setting.maxForeignQueries(), load, setting.updatedBy(), setting.updatedAt());
    }

    private static TablePattern pattern(String text) {
        return validated(() -> TablePattern.parse(text));
    }

    private static Engine engine(String id) {
        try {
            return Engine.fromId(id);
        } catch (IllegalArgumentException e) {
            throw invalid("Cannot use engine '" + id + "': expected native, trino or spark");
        }
    }

    private static <T> T validated(Supplier<T> parse) {
        try {
            return parse.get();
        } catch (InvalidPolicyException e) {
            throw new CryoException(GovernorErrorCode.INVALID_POLICY, e.getMessage(), e);
        }
    }

    private static CryoException invalid(String message) {
        return new CryoException(GovernorErrorCode.INVALID_POLICY, message);
    }
}
