package dev.cryo.console.domain;

import dev.cryo.contracts.Grade;
import dev.cryo.contracts.event.Deduction;

import java.time.Instant;

import static java.util.Objects.requireNonNull;

/**
 * One table on the fleet page: what the scorer graded, what the scanner last saw, and the engine
 * the governor would run its maintenance on.
 *
 * @param table the table id
 * @param catalog its catalog
 * @param namespace its namespace
 * @param grade its current grade (null: not graded yet)
 * @param score its current score (null: not graded yet)
 * @param topDeduction its worst deduction (null: none, or not graded)
 * @param gradedAt when it was last graded (null: never)
 * @param lastChangeAt when its last change was scanned (null: the scanner has not reported it)
 * @param lastChangeSource what noticed that change: commit-report, watcher, webhook, sweep, manual
 * @param scanPending whether a change waits for a scan
 * @param scanError why the scanner's last attempt failed (null: it did not)
 * @param engine the engine the governor resolves for it (null: unknown)
 * @param paused whether a pause holds it (null: unknown)
 */
public record FleetRow(String table, String catalog, String namespace, Grade grade, Integer score,
                       Deduction topDeduction, Instant gradedAt, Instant lastChangeAt, String lastChangeSource,
                       boolean scanPending, String scanError, String engine, Boolean paused) {

    public FleetRow {
        requireNonNull(table, "table is null");
        requireNonNull(catalog, "catalog is null");
        requireNonNull(namespace, "namespace is null");
        if ((grade == null) != (score == null)) {
            throw new IllegalArgumentException("a row has both a grade and a score, or neither: " + table);
        }
    }

    public boolean graded() {
        return grade != null;
    }

    /** The same row with the governor's view of it. */
    public FleetRow withGovernance(String resolvedEngine, Boolean isPaused) {
        return new FleetRow(table, catalog, namespace, grade, score, topDeduction, gradedAt, lastChangeAt,
                lastChangeSource, scanPending, scanError, resolvedEngine, isPaused);
    }
}
