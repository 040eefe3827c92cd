package dev.cryo.audit.domain;

import java.util.Arrays;
import java.util.Locale;

/** How an export is written. */
public enum ExportFormat {
    /** RFC 4180 CSV with a header line; payload and headers as JSON text in their cells. */
    CSV("text/csv; charset=UTF-8", "csv"),
    /** One JSON object per line (JSON Lines), payload and headers as JSON. */
    JSONL("application/x-ndjson", "jsonl");

    private final String mediaType;
    private final String extension;

    ExportFormat(String mediaType, String extension) {
        this.mediaType = mediaType;
        this.extension = extension;
    }

    public String mediaType() {
        return mediaType;
    }

    public String extension() {
        return extension;
    }

    public static ExportFormat fromId(String id) {
        return Arrays.stream(values()).filter(format -> format.extension.equals(id.toLowerCase(Locale.ROOT))).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Cannot export as '" + id + "': expected csv or jsonl"));
    }
}
