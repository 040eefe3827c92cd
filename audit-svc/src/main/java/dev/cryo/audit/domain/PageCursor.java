package dev.cryo.audit.domain;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;

import static java.util.Objects.requireNonNull;

/**
 * Where a page of the newest-first listing ended: the (event time, id) of its last row. The next
 * page starts strictly after it, so rows arriving meanwhile neither shift nor repeat a page.
 *
 * @param eventTime the last row's event time (microseconds, as stored)
 * @param id the last row's id
 */
public record PageCursor(Instant eventTime, long id) {

    private static final String VERSION = "v1";

    public PageCursor {
        requireNonNull(eventTime, "eventTime is null");
        eventTime = eventTime.truncatedTo(ChronoUnit.MICROS);
    }

    /** An opaque, URL-safe token. */
    public String encode() {
        long micros = ChronoUnit.MICROS.between(Instant.EPOCH, eventTime);
        String plain = VERSION + ":" + micros + ":" + id;
        return Base64.getUrlEncoder().withoutPadding().encodeToString(plain.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Reads a token made by {@link #encode()}.
     *
     * @throws IllegalArgumentException when the token was not made by this service
     */
    public static PageCursor decode(String token) {
        requireNonNull(token, "token is null");
        try {
            String[] parts = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8).split(":");
            if (parts.length != 3 || !parts[0].equals(VERSION)) {
                throw new IllegalArgumentException("unknown format");
            }
            Instant time = Instant.EPOCH.plus(Long.parseLong(parts[1]), ChronoUnit.MICROS);
            return new PageCursor(time, Long.parseLong(parts[2]));
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new IllegalArgumentException("Cannot read cursor '" + token + "': pass the 'next' value of the previous page", e);
        }
    }
}
