package dev.cryo.governor.domain;

import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/** The two forms of {@link MaintenanceWindow}. */
final class Windows {

    private static final String FORMS = "write HH:MM-HH:MM [zone], e.g. 22:00-06:00 Europe/Berlin, "
            + "or cron(<minute hour day month weekday>) <ISO-8601 length> [zone], e.g. cron(0 1 * * SAT) PT5H UTC";
    private static final Pattern DAILY = Pattern.compile("(\\d{2}:\\d{2})-(\\d{2}:\\d{2})(?:\\s+(\\S+))?");
    private static final Pattern CRON = Pattern.compile("cron\\(([^)]*)\\)\\s+(\\S+)(?:\\s+(\\S+))?");
    private static final CronParser UNIX_CRON = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));

    static MaintenanceWindow parse(String expression) {
        requireNonNull(expression, "window is null");
        String trimmed = expression.trim();
        Matcher daily = DAILY.matcher(trimmed);
        if (daily.matches()) {
            LocalTime start = time(daily.group(1), expression);
            LocalTime end = time(daily.group(2), expression);
            if (start.equals(end)) {
                throw new InvalidPolicyException("Cannot use window '" + expression
                        + "': it starts and ends at the same time; a table that may always be maintained needs no window");
            }
            return new Daily(trimmed, start, end, zone(daily.group(3), expression));
        }
        Matcher cron = CRON.matcher(trimmed);
        if (cron.matches()) {
            ExecutionTime schedule;
            try {
                schedule = ExecutionTime.forCron(UNIX_CRON.parse(cron.group(1).trim()).validate());
            } catch (IllegalArgumentException e) {
                throw new InvalidPolicyException("Cannot use window '" + expression + "': the cron expression '"
                        + cron.group(1).trim() + "' is not a Unix cron expression (" + e.getMessage() + "); " + FORMS, e);
            }
            Duration length;
            try {
                length = Duration.parse(cron.group(2));
            } catch (DateTimeParseException e) {
                throw new InvalidPolicyException("Cannot use window '" + expression + "': its length '" + cron.group(2)
                        + "' is not an ISO-8601 duration such as PT4H", e);
            }
            if (length.isNegative() || length.isZero()) {
                throw new InvalidPolicyException("Cannot use window '" + expression + "': its length must be positive");
            }
            return new Cron(trimmed, schedule, length, zone(cron.group(3), expression));
        }
        throw new InvalidPolicyException("Cannot use window '" + expression + "': " + FORMS);
    }

    private static LocalTime time(String text, String expression) {
        try {
            return LocalTime.parse(text);
        } catch (DateTimeParseException e) {
            throw new InvalidPolicyException("Cannot use window '" + expression + "': '" + text
                    + "' is not a time of day from 00:00 to 23:59", e);
        }
    }

    private static ZoneId zone(String text, String expression) {
        if (text == null) {
            return ZoneOffset.UTC;
        }
        try {
            return ZoneId.of(text);
        } catch (DateTimeException e) {
            throw new InvalidPolicyException("Cannot use window '" + expression + "': '" + text
                    + "' is not a time zone; use a region id such as Europe/Berlin, or UTC", e);
        }
    }

    /** Every day from start to end, local time of the zone; end before start means the window crosses midnight. */
    private record Daily(String expression, LocalTime start, LocalTime end, ZoneId zone) implements MaintenanceWindow {

        @Override
        public boolean contains(Instant instant) {
            LocalTime now = instant.atZone(zone).toLocalTime();
            if (start.isBefore(end)) {
                return !now.isBefore(start) && now.isBefore(end);
            }
            return !now.isBefore(start) || now.isBefore(end);
        }

        @Override
        public Optional<Instant> nextStart(Instant instant) {
            LocalDate day = instant.atZone(zone).toLocalDate();
            // Yesterday too: a start shifted by a daylight-saving gap can fall on the local date before.
            for (LocalDate candidate = day.minusDays(1); ; candidate = candidate.plusDays(1)) {
                Instant start = ZonedDateTime.of(candidate, this.start, zone).toInstant();
                if (start.isAfter(instant)) {
                    return Optional.of(start);
                }
            }
        }
    }

    /** Opens whenever the cron expression fires, in the zone, for the given length. */
    private record Cron(String expression, ExecutionTime schedule, Duration length, ZoneId zone)
            implements MaintenanceWindow {

        @Override
        public boolean contains(Instant instant) {
            // The last firing at or before the instant: cron fires on whole minutes, so look just after it.
            ZonedDateTime justAfter = instant.plusSeconds(1).atZone(zone);
            return schedule.lastExecution(justAfter)
                    .map(start -> !start.toInstant().isAfter(instant) && start.toInstant().plus(length).isAfter(instant))
                    .orElse(false);
        }

        @Override
        public Optional<Instant> nextStart(Instant instant) {
            return schedule.nextExecution(instant.atZone(zone)).map(ZonedDateTime::toInstant);
        }
    }

    private Windows() {
    }
}
