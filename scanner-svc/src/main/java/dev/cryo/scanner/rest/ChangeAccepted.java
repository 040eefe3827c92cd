package dev.cryo.scanner.rest;

/**
 * The answer to a notification or a scan request: the TableChanged that was published.
 *
 * @param eventId its CloudEvents id, the correlation id of the scan that follows
 * @param table the table id
 */
public record ChangeAccepted(String eventId, String table) {
}
