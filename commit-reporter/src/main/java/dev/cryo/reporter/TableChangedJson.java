package dev.cryo.reporter;

import java.time.Instant;

/**
 * The JSON of a {@code dev.cryo.table.changed.v1} payload, written by hand: the reporter runs
 * inside writers' JVMs and brings no JSON library of its own.
 */
final class TableChangedJson {

    private TableChangedJson() {
    }

    static String write(String table, Instant detectedAt, long snapshotId, long sequenceNumber, String operation,
                        String cryoJobId, String actor) {
        StringBuilder json = new StringBuilder(256).append('{');
        field(json, "table", table);
        json.append(',');
        field(json, "source", "commit-report");
        json.append(',');
        field(json, "detectedAt", detectedAt.toString());
        json.append(",\"snapshotId\":").append(snapshotId);
        json.append(",\"sequenceNumber\":").append(sequenceNumber);
        if (operation != null) {
            json.append(',');
            field(json, "snapshotOperation", operation);
        }
        if (cryoJobId != null) {
            json.append(',');
            field(json, "cryoJobId", cryoJobId);
        }
        if (actor != null) {
            json.append(',');
            field(json, "actor", actor);
        }
        return json.append('}').toString();
    }

    private static void field(StringBuilder json, String name, String value) {
        json.append('"').append(name).append("\":");
        string(json, value);
    }

    static void string(StringBuilder json, String value) {
        json.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                case '\r' -> json.append("\\r");
                case '\t' -> json.append("\\t");
                case '\b' -> json.append("\\b");
                case '\f' -> json.append("\\f");
                default -> {
                    if (c < 0x20) {
                        json.append(String.format("\\u%04x", (int) c));
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        json.append('"');
    }
}
