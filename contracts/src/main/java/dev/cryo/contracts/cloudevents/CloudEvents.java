package dev.cryo.contracts.cloudevents;

import static java.util.Objects.requireNonNull;

/**
 * CloudEvents 1.0 in Kafka binary mode, as Cryo uses it: attributes travel as {@code ce_*}
 * headers, the data (JSON) is the record value, the key is the table id. SmallRye Reactive
 * Messaging writes the same headers in its {@code binary} mode.
 */
public final class CloudEvents {

    public static final String SPEC_VERSION = "1.0";
    public static final String DATA_CONTENT_TYPE = "application/json";

    public static final String HEADER_SPEC_VERSION = "ce_specversion";
    public static final String HEADER_ID = "ce_id";
    public static final String HEADER_SOURCE = "ce_source";
    public static final String HEADER_TYPE = "ce_type";
    public static final String HEADER_TIME = "ce_time";
    public static final String HEADER_SUBJECT = "ce_subject";
    public static final String HEADER_CONTENT_TYPE = "content-type";

    /**
     * Extension attribute carrying the id of the {@code TableChanged} event that started the chain,
     * so one table change can be followed to the job it caused. CloudEvents extension names are
     * lower-case letters and digits only.
     */
    public static final String EXTENSION_CORRELATION_ID = "correlationid";
    public static final String HEADER_CORRELATION_ID = "ce_" + EXTENSION_CORRELATION_ID;

    /** Extension attribute naming the person or system that asked for the work (optional). */
    public static final String EXTENSION_ACTOR = "actor";
    public static final String HEADER_ACTOR = "ce_" + EXTENSION_ACTOR;

    /** The CloudEvents {@code source} of a Cryo component, e.g. {@code /cryo/scanner}. */
    public static String source(String component) {
        requireNonNull(component, "component is null");
        if (!component.matches("[a-z][a-z0-9-]*")) {
            throw new IllegalArgumentException("Cannot name event source: component '" + component
                    + "' must be lower-case letters, digits and '-'");
        }
        return "/cryo/" + component;
    }

    private CloudEvents() {
    }
}
