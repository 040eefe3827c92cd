package dev.cryo.platform.deadletter;

import java.util.List;

/**
 * A request to re-drive dead letters: the listed ids, or every one not re-driven yet when {@code all}
 * is true. Asking for neither is refused, so an empty body never re-drives a whole topic by accident.
 *
 * @param ids dead-letter ids, {@code <partition>-<offset>}, as {@code GET /api/v1/dead-letters} lists them
 * @param all re-drive every dead letter that waits
 */
public record RedriveRequest(List<String> ids, Boolean all) {
}
