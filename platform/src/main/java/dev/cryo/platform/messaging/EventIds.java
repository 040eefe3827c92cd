package dev.cryo.platform.messaging;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * Deterministic ids for events derived from another event. A consumer that handles a
 * redelivered event publishes its results again under the same ids, so downstream
 * consumers (which deduplicate by id) see each result once, and nothing is lost when a
 * service stops between its database commit and its publication.
 */
public final class EventIds {

    /** The id of the {@code purpose} result of the input event {@code inputEventId}. */
    public static String derived(String inputEventId, String purpose) {
        return UUID.nameUUIDFromBytes((inputEventId + "/" + purpose).getBytes(StandardCharsets.UTF_8)).toString();
    }

    private EventIds() {
    }
}
