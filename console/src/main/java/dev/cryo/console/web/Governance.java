package dev.cryo.console.web;

import dev.cryo.console.client.Fetched;
import dev.cryo.console.client.GovernorApi.GovernedTable;
import dev.cryo.console.client.ServiceException;
import dev.cryo.console.client.Services;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The governor's view of each fleet table (its resolved engine, its pause), remembered for a short
 * while: the fleet page refreshes every few seconds, and the governor answers one table per call.
 */
@ApplicationScoped
public class Governance {

    /** How long one answer of the governor serves the fleet page. */
    static final Duration KEPT = Duration.ofSeconds(20);

    private record Kept(GovernedTable table, Instant fetchedAt) {
    }

    /**
     * The tables the governor answered for, and the first failure of those it did not (null: none).
     */
    public record Answers(Map<String, GovernedTable> tables, ServiceException problem) {
        public Answers {
            tables = Map.copyOf(tables);
        }
    }

    private final Services services;
    private final Clock clock = Clock.systemUTC();
    private final Map<String, Kept> kept = new ConcurrentHashMap<>();

    Governance(Services services) {
        this.services = services;
    }

    /**
     * The governor's view of each table, fetched side by side for those not remembered; a failure
     * (governor unreachable) leaves those tables out and is named in the answer.
     */
    public Answers of(List<String> tables) {
        Instant now = clock.instant();
        Map<String, GovernedTable> known = new HashMap<>();
        List<String> missing = new ArrayList<>();
        for (String table : tables) {
            Kept entry = kept.get(table);
            if (entry != null && Duration.between(entry.fetchedAt(), now).compareTo(KEPT) < 0) {
                known.put(table, entry.table());
            } else {
                missing.add(table);
            }
        }
        if (missing.isEmpty()) {
            return new Answers(known, null);
        }
        // One call first: when the governor is down, the page waits for one timeout, not one per table.
        Fetched<GovernedTable> first = services.fetch(() -> services.governor(api -> api.table(missing.get(0)))).join();
        if (!first.ok() && first.problem().kind() == ServiceException.Kind.UNREACHABLE) {
            return new Answers(known, first.problem());
        }
        Map<String, CompletableFuture<Fetched<GovernedTable>>> asked = new HashMap<>();
        asked.put(missing.get(0), CompletableFuture.completedFuture(first));
        for (String table : missing.subList(1, missing.size())) {
            asked.put(table, services.fetch(() -> services.governor(api -> api.table(table))));
        }
        ServiceException problem = null;
        for (Map.Entry<String, CompletableFuture<Fetched<GovernedTable>>> entry : asked.entrySet()) {
            Fetched<GovernedTable> answer = entry.getValue().join();
            if (answer.ok()) {
                known.put(entry.getKey(), answer.value());
                kept.put(entry.getKey(), new Kept(answer.value(), now));
            } else if (problem == null) {
                problem = answer.problem();
            }
        }
        return new Answers(known, problem);
    }

    /** Forgets a table after an action changed it, so the next page shows the change at once. */
    public void forget(String table) {
        kept.remove(table);
    }
}
