package dev.cryo.scanner.persistence;

import java.time.Instant;

/**
 * The health of one configured catalog, as the watcher last saw it.
 *
 * @param catalog the catalog name
 * @param reachable whether the last poll succeeded
 * @param tables tables found by the last successful poll (null: never polled)
 * @param lastPollAt when the watcher last polled it
 * @param lastError why the last poll failed (null when it succeeded)
 * @param lastErrorAt when it failed
 */
public record CatalogStatus(String catalog, boolean reachable, Integer tables, Instant lastPollAt, String lastError,
                            Instant lastErrorAt) {
}
