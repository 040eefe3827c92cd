package dev.cryo.governor.domain;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MaintenanceWindowTest {

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
    private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");

    @Test
    void aDailyWindowCrossesMidnightInItsOwnZone() {
        MaintenanceWindow night = MaintenanceWindow.parse("22:00-06:00 Europe/Berlin");

        assertThat(night.contains(at("2026-06-15T22:00", BERLIN))).isTrue();
        assertThat(night.contains(at("2026-06-15T23:30", BERLIN))).isTrue();
        assertThat(night.contains(at("2026-06-16T00:00", BERLIN))).isTrue();
        assertThat(night.contains(at("2026-06-16T05:59", BERLIN))).isTrue();
        assertThat(night.contains(at("2026-06-16T06:00", BERLIN))).isFalse();
        assertThat(night.contains(at("2026-06-15T21:59", BERLIN))).isFalse();
        assertThat(night.contains(at("2026-06-15T12:00", BERLIN))).isFalse();
        assertThat(night.nextStart(at("2026-06-16T06:00", BERLIN))).contains(at("2026-06-16T22:00", BERLIN));
        assertThat(night.nextStart(at("2026-06-15T23:00", BERLIN))).contains(at("2026-06-16T22:00", BERLIN));
    }

    @Test
    void theSameInstantIsInsideOrOutsideDependingOnTheWindowsZone() {
        Instant noonUtc = Instant.parse("2026-06-15T12:00:00Z");

        assertThat(MaintenanceWindow.parse("09:00-17:00").contains(noonUtc)).isTrue();
        assertThat(MaintenanceWindow.parse("09:00-17:00 UTC").contains(noonUtc)).isTrue();
        // 08:00 in New York (UTC-4 in summer)
        assertThat(MaintenanceWindow.parse("09:00-17:00 America/New_York").contains(noonUtc)).isFalse();
        assertThat(MaintenanceWindow.parse("09:00-17:00 America/New_York").nextStart(noonUtc))
                .contains(Instant.parse("2026-06-15T13:00:00Z"));
        // 21:00 in Tokyo (UTC+9), inside a window that crosses midnight
        assertThat(MaintenanceWindow.parse("20:00-02:00 Asia/Tokyo").contains(noonUtc)).isTrue();
    }

    @Test
    void aStartInTheSpringForwardGapOpensWhenTheClockReachesIt() {
        // Berlin skips 02:00-03:00 on 2026-03-29: a 02:30 start happens at 03:30 local summer time (01:30Z).
        MaintenanceWindow window = MaintenanceWindow.parse("02:30-04:00 Europe/Berlin");

        assertThat(window.nextStart(Instant.parse("2026-03-29T00:00:00Z")))
                .contains(Instant.parse("2026-03-29T01:30:00Z"));
        assertThat(window.contains(Instant.parse("2026-03-29T01:45:00Z"))).isTrue();
    }

    @Test
    void aCronWindowOpensWhenTheExpressionFiresAndLastsItsLength() {
        MaintenanceWindow weekdayNights = MaintenanceWindow.parse("cron(0 22 * * MON-FRI) PT4H Europe/Berlin");

        assertThat(weekdayNights.contains(at("2026-06-12T22:00", BERLIN))).isTrue(); // Friday, at the start
        assertThat(weekdayNights.contains(at("2026-06-13T01:59", BERLIN))).isTrue(); // Saturday, still Friday's
        assertThat(weekdayNights.contains(at("2026-06-13T02:00", BERLIN))).isFalse();
        assertThat(weekdayNights.contains(at("2026-06-13T23:00", BERLIN))).isFalse(); // Saturday night
        assertThat(weekdayNights.contains(at("2026-06-12T21:59", BERLIN))).isFalse();
        assertThat(weekdayNights.nextStart(at("2026-06-13T12:00", BERLIN))).contains(at("2026-06-15T22:00", BERLIN));
        assertThat(weekdayNights.expression()).isEqualTo("cron(0 22 * * MON-FRI) PT4H Europe/Berlin");
    }

    @Test
    void aCronWindowWithoutZoneIsInUtc() {
        MaintenanceWindow window = MaintenanceWindow.parse("cron(30 1 1 * *) PT2H");

        assertThat(window.contains(Instant.parse("2026-07-01T02:00:00Z"))).isTrue();
        assertThat(window.contains(Instant.parse("2026-07-02T02:00:00Z"))).isFalse();
        assertThat(window.nextStart(Instant.parse("2026-06-15T12:00:00Z")))
                .contains(Instant.parse("2026-07-01T01:30:00Z"));
        assertThat(MaintenanceWindow.parse("cron(0 3 * * *) PT1H America/New_York")
                .nextStart(Instant.parse("2026-06-15T12:00:00Z"))).contains(at("2026-06-16T03:00", NEW_YORK));
    }

    @Test
    void malformedWindowsAreRefusedWithWhatToWrite() {
        assertThatThrownBy(() -> MaintenanceWindow.parse("tonight"))
                .isInstanceOf(InvalidPolicyException.class)
                .hasMessage("Cannot use window 'tonight': write HH:MM-HH:MM [zone], e.g. 22:00-06:00 Europe/Berlin, "
                        + "or cron(<minute hour day month weekday>) <ISO-8601 length> [zone], e.g. cron(0 1 * * SAT) PT5H UTC");
        assertThatThrownBy(() -> MaintenanceWindow.parse("25:00-06:00"))
                .hasMessageStartingWith("Cannot use window '25:00-06:00': '25:00' is not a time of day from 00:00 to 23:59");
        assertThatThrownBy(() -> MaintenanceWindow.parse("22:00-06:00 Mars/Olympus"))
                .hasMessage("Cannot use window '22:00-06:00 Mars/Olympus': 'Mars/Olympus' is not a time zone; "
                        + "use a region id such as Europe/Berlin, or UTC");
        assertThatThrownBy(() -> MaintenanceWindow.parse("06:00-06:00"))
                .hasMessage("Cannot use window '06:00-06:00': it starts and ends at the same time; "
                        + "a table that may always be maintained needs no window");
        assertThatThrownBy(() -> MaintenanceWindow.parse("cron(0 99 * * *) PT1H"))
                .hasMessageStartingWith("Cannot use window 'cron(0 99 * * *) PT1H': the cron expression '0 99 * * *' "
                        + "is not a Unix cron expression");
        assertThatThrownBy(() -> MaintenanceWindow.parse("cron(0 1 * * *) 4 hours"))
                .hasMessage("Cannot use window 'cron(0 1 * * *) 4 hours': its length '4' is not an ISO-8601 duration "
                        + "such as PT4H");
        assertThatThrownBy(() -> MaintenanceWindow.parse("cron(0 1 * * *) 4h"))
                .hasMessage("Cannot use window 'cron(0 1 * * *) 4h': its length '4h' is not an ISO-8601 duration such as PT4H");
        assertThatThrownBy(() -> MaintenanceWindow.parse("cron(0 1 * * *) PT0S"))
                .hasMessage("Cannot use window 'cron(0 1 * * *) PT0S': its length must be positive");
    }

    private static Instant at(String localDateTime, ZoneId zone) {
        return LocalDateTime.parse(localDateTime).atZone(zone).toInstant();
    }
}
