package dev.cryo.scanner.rest;

import java.time.Instant;

/**
 * A configured catalog and its health.
 *
 * @param name the catalog name, first part of its table ids
 * @param watchMethod how the watcher reads its metadata pointers
 * @param reachable whether the last watcher poll succeeded (false until the first poll)
 * @param tables tables found by the last successful poll
 * @param lastPollAt when the watcher last polled it
 * @param lastError why the last poll failed (null when it succeeded)
 * @param lastErrorAt when a poll last failed
 */
public record CatalogView(String name, String watchMethod, boolean reachable, Integer tables, Instant lastPollAt,
                          String lastError, Instant lastErrorAt) {
}
