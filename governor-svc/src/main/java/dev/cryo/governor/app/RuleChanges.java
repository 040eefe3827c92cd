package dev.cryo.governor.app;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.TableId;
import dev.cryo.governor.GovernorErrorCode;
import dev.cryo.governor.domain.Pause;
import dev.cryo.governor.domain.PolicyRule;
import dev.cryo.governor.persistence.JobStore;
import dev.cryo.governor.persistence.PlanStore;
import dev.cryo.governor.persistence.RuleStore;
import dev.cryo.platform.error.CryoException;
import io.quarkus.logging.Log;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;

/**
 * Operators' changes to pauses, policies and engine settings. Each one makes every queued plan
 * due at once, so a resume or a wider window takes effect without waiting for a retry-after.
 */
@ApplicationScoped
public class RuleChanges {

    private final RuleStore rules;
    private final PlanStore plans;
    private final JobStore jobs;
    private final EngineLoads loads;
    private final AdmissionLoop loop;
    private final JobEvents jobEvents;
    private final java.time.Clock clock;

    RuleChanges(RuleStore rules, PlanStore plans, JobStore jobs, EngineLoads loads, AdmissionLoop loop,
                JobEvents jobEvents, java.time.Clock clock) {
        this.jobEvents = jobEvents;
        this.rules = rules;
        this.plans = plans;
        this.jobs = jobs;
        this.loads = loads;
        this.loop = loop;
        this.clock = clock;
    }

    /** Stops admissions to the tables the pause matches and revokes the jobs that hold them now; returns their ids. */
    public List<String> pause(Pause pause) {
        List<String> revoked = QuarkusTransaction.requiringNew().call(() -> {
            // Pauses, then tables, then plan rows: the order every admission takes them in.
            rules.lockPausesForChange();
            rules.insertPause(pause);
            List<String> held = jobEvents.revokeFor(pause);
            plans.allDueNow(clock.instant());
            return held;
        });
        Log.infof("%s paused '%s' (pause %s): %s%s", pause.pausedBy(), pause.pattern(), pause.id(), pause.reason(),
                revoked.isEmpty() ? "" : "; revoked jobs " + revoked);
        loop.request();
        return revoked;
    }

    public void resume(String pauseId, String actor) {
        boolean deleted = QuarkusTransaction.requiringNew().call(() -> {
            boolean found = rules.deletePause(pauseId);
            plans.allDueNow(clock.instant());
            return found;
        });
        if (!deleted) {
            throw new CryoException(GovernorErrorCode.PAUSE_NOT_FOUND, "Cannot lift pause " + pauseId
                    + ": there is no such pause; GET /api/v1/pauses lists them");
        }
        Log.infof("%s lifted pause %s", actor, pauseId);
        loop.request();
    }

    /**
     * Resumes a table that failing jobs blocked (or that waits out a retry backoff): the jobs that
     * failed before no longer count, and its plans are decided again at once.
     */
    public void resumeTable(TableId table, String actor) {
        QuarkusTransaction.requiringNew().run(() -> {
            jobs.resume(table, actor, clock.instant());
            plans.dueNowForTable(table, clock.instant());
        });
        Log.infof("%s resumed %s: the jobs that failed on it before no longer count", actor, table);
        loop.request();
    }

    public void setPolicy(PolicyRule rule) {
        QuarkusTransaction.requiringNew().run(() -> {
            rules.upsertPolicy(rule);
            plans.allDueNow(clock.instant());
        });
        Log.infof("%s set the policy of '%s': %s", rule.updatedBy(), rule.pattern(), rule);
        loop.request();
    }

    public void removePolicy(String pattern, String actor) {
        boolean deleted = QuarkusTransaction.requiringNew().call(() -> {
            boolean found = rules.deletePolicy(pattern);
            plans.allDueNow(clock.instant());
            return found;
        });
        if (!deleted) {
            throw new CryoException(GovernorErrorCode.POLICY_NOT_FOUND, "Cannot remove the policy of '" + pattern
                    + "': there is none; GET /api/v1/policies lists them");
        }
        Log.infof("%s removed the policy of '%s'", actor, pattern);
        loop.request();
    }

    public void setEngine(Engine engine, int slots, int maxForeignQueries, String actor) {
        QuarkusTransaction.requiringNew().run(() -> {
            rules.lockEngine(engine);
            rules.updateEngine(engine, slots, maxForeignQueries, actor, clock.instant());
            plans.allDueNow(clock.instant());
        });
        loads.refresh();
        Log.infof("%s set engine %s to %d slots, at most %d foreign queries", actor, engine.id(), slots,
                maxForeignQueries);
        loop.request();
    }
}
