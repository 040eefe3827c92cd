package dev.cryo.console.web;

import dev.cryo.console.domain.Formats;
import dev.cryo.contracts.event.Deduction;
import io.quarkus.qute.TemplateExtension;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;

/** Formatting for templates: {@code {fmt:bytes(x)}}, {@code {fmt:ago(t)}}; Qute escapes the results. */
@TemplateExtension(namespace = "fmt")
public final class TemplateFormats {

    static String bytes(long bytes) {
        return Formats.bytes(bytes);
    }

    static String count(long count) {
        return Formats.count(count);
    }

    static String ago(Instant moment) {
        return Formats.relative(moment, Instant.now());
    }

    static String time(Instant moment) {
        return Formats.time(moment);
    }

    static String duration(Duration duration) {
        return Formats.duration(duration);
    }

    static String measured(Deduction deduction) {
        return Formats.measured(deduction.measured(), deduction.unit());
    }

    static String limit(Deduction deduction) {
        return Formats.measured(deduction.limit(), deduction.unit());
    }

    /** A table id (or any text) as one URL path segment: {@code /tables/{fmt:path(id)}}. */
    static String path(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** A value as a URL query parameter value. */
    static String query(String value) {
        return URLEncoder.encode(value == null ? "" : value, StandardCharsets.UTF_8);
    }

    private TemplateFormats() {
    }
}
