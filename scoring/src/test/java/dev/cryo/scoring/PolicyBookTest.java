package dev.cryo.scoring;

import dev.cryo.contracts.Check;
import dev.cryo.contracts.Severity;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.Deduction;
import dev.cryo.contracts.event.TableScanned;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import static dev.cryo.scoring.fixtures.ScanBuilder.GIB;
import static dev.cryo.scoring.fixtures.ScanBuilder.NOW;
import static dev.cryo.scoring.fixtures.ScanBuilder.healthy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PolicyBookTest {

    /** Limits are checked here, not what expiry can reach: every snapshot may go. */
    static final SnapshotExpiry EVERY_SNAPSHOT_EXPIRABLE = SnapshotExpiry.defaults(java.time.Duration.ZERO, 1);

    private static final TableId EVENTS = TableId.parse("lake.analytics.events");

    @Test
    void withoutOverridesEveryValueIsTheDefault() {
        TablePolicy policy = PolicyBook.defaults().effectiveFor(EVENTS, Map.of());

        assertThat(policy.inOrder()).hasSize(14).allSatisfy(check -> {
            assertThat(check.enabled()).isEqualTo(new Sourced<>(true, Source.DEFAULT, null));
            assertThat(check.limits().values()).allSatisfy(limit -> assertThat(limit.source()).isEqualTo(Source.DEFAULT));
        });
        assertThat(limit(policy, Check.SMALL_FILES, Setting.WARNING)).isEqualTo(0.2);
        assertThat(limit(policy, Check.SNAPSHOT_AGE, Setting.CRITICAL)).isEqualTo(30 * 86_400.0);
        assertThat(limit(policy, Check.ORPHAN_FILES, Setting.CRITICAL_BYTES)).isEqualTo(10.0 * GIB);
        assertThat(policy.check(Check.MISSING_STATISTICS).limit(Setting.CRITICAL)).isEmpty();
        assertThat(policy.problems()).isEmpty();
    }

    @Test
    void eachSettingComesFromTheHighestLayerThatSetsIt() {
        PolicyBook book = PolicyBook.builder()
                .global("small-files", Setting.WARNING, "0.3", "cryo.scorer.checks.\"small-files\".warning")
                .global("small-files", Setting.CRITICAL, "0.7", "cryo.scorer.checks.\"small-files\".critical")
                .global("small-files", Setting.ENABLED, "true", "cryo.scorer.checks.\"small-files\".enabled")
                .pattern("analytics.*", "small-files", Setting.CRITICAL, "0.6",
                        "cryo.scorer.policies.\"analytics.*\".checks.\"small-files\".critical")
                .build();

        TablePolicy policy = book.effectiveFor(EVENTS, Map.of("cryo.small-files.warning", "0.25"));

        CheckPolicy smallFiles = policy.check(Check.SMALL_FILES);
        assertThat(smallFiles.limit(Setting.WARNING)).contains(
                new Sourced<>(0.25, Source.tableProperty("cryo.small-files.warning"), "cryo.small-files.warning"));
        assertThat(smallFiles.limit(Setting.CRITICAL)).contains(new Sourced<>(0.6, Source.pattern("analytics.*"),
                "cryo.scorer.policies.\"analytics.*\".checks.\"small-files\".critical"));
        assertThat(smallFiles.enabled().source()).isEqualTo(Source.GLOBAL);
        assertThat(smallFiles.enabled().source().toString()).isEqualTo("global");
        assertThat(smallFiles.limit(Setting.CRITICAL).orElseThrow().source().toString()).isEqualTo("pattern:analytics.*");
        assertThat(smallFiles.limit(Setting.WARNING).orElseThrow().source().toString())
                .isEqualTo("table-property:cryo.small-files.warning");
        assertThat(policy.check(Check.FILE_COUNT).limit(Setting.WARNING).orElseThrow().source()).isEqualTo(Source.DEFAULT);
    }

    @Test
    void overridesChangeTheOutcomeAsDocumented() {
        // 55 % small files: critical by default (50 %), a warning under a pattern that moves critical to 60 %,
        // and critical again for a table whose property moves it back to 55 %.
        PolicyBook book = PolicyBook.builder()
                .pattern("analytics.*", "small-files", Setting.CRITICAL, "0.6", "p").build();
        TableScanned scan = healthy().dataFiles(1000).smallFiles(550).build();
        TableScanned withProperty = healthy().dataFiles(1000).smallFiles(550)
                .property("cryo.small-files.critical", "0.55").build();
        TableScanned otherNamespace = healthy().table("lake.finance.ledger").dataFiles(1000).smallFiles(550).build();

        assertThat(severity(PolicyBook.defaults(), scan, Check.SMALL_FILES)).contains(Severity.CRITICAL);
        assertThat(severity(book, scan, Check.SMALL_FILES)).contains(Severity.WARNING);
        assertThat(severity(book, withProperty, Check.SMALL_FILES)).contains(Severity.CRITICAL);
        assertThat(severity(book, otherNamespace, Check.SMALL_FILES)).contains(Severity.CRITICAL);
    }

    @Test
    void ageAndSizeLimitsReadTheUnitsOperatorsWrite() {
        PolicyBook book = PolicyBook.builder()
                .global("snapshot-age", Setting.WARNING, "P14D", "age")
                .global("orphan-files", Setting.WARNING_BYTES, "5GiB", "orphans")
                .build();
        TableScanned tenDaysOld = healthy().snapshots(20, NOW.minus(Duration.ofDays(10))).build();
        TableScanned fifteenDaysOld = healthy().snapshots(20, NOW.minus(Duration.ofDays(15))).build();
        TableScanned twoGibOrphans = healthy().dataBytes(100 * GIB).orphanBytes(2 * GIB).build();

        assertThat(severity(book, tenDaysOld, Check.SNAPSHOT_AGE)).isEmpty();
        assertThat(severity(book, fifteenDaysOld, Check.SNAPSHOT_AGE)).contains(Severity.WARNING);
        assertThat(severity(PolicyBook.defaults(), twoGibOrphans, Check.ORPHAN_FILES)).contains(Severity.WARNING);
        assertThat(severity(book, twoGibOrphans, Check.ORPHAN_FILES)).isEmpty();
        assertThat(limit(book.effectiveFor(EVENTS, Map.of()), Check.SNAPSHOT_AGE, Setting.WARNING)).isEqualTo(14 * 86_400.0);
    }

    @Test
    void theMostSpecificPatternWinsAndMatchesWithOrWithoutTheCatalog() {
        PolicyBook book = PolicyBook.builder()
                .pattern("analytics.*", "snapshot-count", Setting.WARNING, "200", "a")
                .pattern("lake.analytics.ev*", "snapshot-count", Setting.WARNING, "300", "b")
                .pattern("*", "snapshot-count", Setting.WARNING, "150", "c")
                .build();

        assertThat(book.patterns()).containsExactly("lake.analytics.ev*", "analytics.*", "*");
        assertThat(book.patternFor(EVENTS)).contains("lake.analytics.ev*");
        assertThat(book.patternFor(TableId.parse("other.analytics.events"))).contains("analytics.*");
        assertThat(book.patternFor(TableId.parse("lake.finance.ledger"))).contains("*");
        assertThat(limit(book.effectiveFor(EVENTS, Map.of()), Check.SNAPSHOT_COUNT, Setting.WARNING)).isEqualTo(300.0);
        assertThat(limit(book.effectiveFor(TableId.parse("x.analytics.pages"), Map.of()), Check.SNAPSHOT_COUNT,
                Setting.WARNING)).isEqualTo(200.0);
    }

    @Test
    void anInvalidConfiguredOverrideFailsNamingItsKey() {
        assertThatThrownBy(() -> PolicyBook.builder().global("small-file", Setting.WARNING, "0.3", "cryo.scorer.checks.small-file.warning").build())
                .isInstanceOf(InvalidPolicyException.class)
                .hasMessageStartingWith("Cannot use cryo.scorer.checks.small-file.warning: unknown check 'small-file'; expected one of [small-files, file-count");
        assertThatThrownBy(() -> PolicyBook.builder().global("small-files", Setting.WARNING, "lots", "key.w").build())
                .hasMessage("Cannot use key.w=lots: 'lots' is not a share within 0..1 (0.2 = 20 %)");
        assertThatThrownBy(() -> PolicyBook.builder().global("small-files", Setting.WARNING, "20", "key.w").build())
                .hasMessage("Cannot use key.w=20: '20' is a share and must be within 0..1 (0.2 = 20 %)");
        assertThatThrownBy(() -> PolicyBook.builder().global("file-count", Setting.CRITICAL, "-5", "key.c").build())
                .hasMessage("Cannot use key.c=-5: '-5' must be a positive count");
        assertThatThrownBy(() -> PolicyBook.builder().global("file-count", Setting.ENABLED, "yes", "key.e").build())
                .hasMessage("Cannot use key.e=yes: expected true or false");
        assertThatThrownBy(() -> PolicyBook.builder().global("file-count", Setting.WARNING_BYTES, "1GiB", "key.b").build())
                .hasMessage("Cannot use key.b: file-count has no setting 'warning-bytes'; expected one of [enabled, warning, critical]");
        assertThatThrownBy(() -> PolicyBook.builder().global("snapshot-age", Setting.WARNING, "P1Y", "key.a").build())
                .hasMessage("Cannot use key.a=P1Y: 'P1Y' is not a number of seconds or an ISO-8601 duration (P7D, PT12H)");
        assertThatThrownBy(() -> PolicyBook.builder().pattern(" ", "file-count", Setting.WARNING, "5", "key.p").build())
                .hasMessage("Cannot use key.p: the table pattern is blank");
    }

    @Test
    void aWarningBeyondItsCriticalLimitFailsAtBuildNamingBothOrigins() {
        assertThatThrownBy(() -> PolicyBook.builder()
                .global("small-files", Setting.WARNING, "0.6", "cryo.scorer.checks.\"small-files\".warning").build())
                .isInstanceOf(InvalidPolicyException.class)
                .hasMessage("Cannot use cryo.scorer.checks.\"small-files\".warning=60 %: the warning limit 60 % "
                        + "(cryo.scorer.checks.\"small-files\".warning) is above the critical limit 50 % (default) of "
                        + "small-files; a check warns before it turns critical");
        // A pattern's value is checked against the global layer it falls back to.
        assertThatThrownBy(() -> PolicyBook.builder()
                .global("snapshot-count", Setting.WARNING, "300", "g.warning")
                .pattern("analytics.*", "snapshot-count", Setting.CRITICAL, "200", "p.critical").build())
                .hasMessage("Cannot use p.critical=200: the warning limit 300 (g.warning) is above the critical limit "
                        + "200 (p.critical) of snapshot-count; a check warns before it turns critical");
    }

    @Test
    void invalidTablePropertiesAreReportedAndTheCheckKeepsItsConfiguredPolicy() {
        PolicyBook book = PolicyBook.builder()
                .global("small-files", Setting.CRITICAL, "0.6", "cryo.scorer.checks.\"small-files\".critical").build();

        TablePolicy policy = book.effectiveFor(EVENTS, Map.of(
                "cryo.small-files.warning", "0.1",
                "cryo.small-files.critical", "lots",
                "cryo.snapshot-count.warning", "900",
                "cryo.manifest-count.treshold", "5",
                "cryo.smal-files.warning", "0.3",
                "cryo.compaction.enabled", "true",
                "cryo.small-file-threshold-bytes", "1000",
                "write.target-file-size-bytes", "536870912"));

        assertThat(policy.problems()).containsExactly(
                "Ignoring table property cryo.smal-files.warning: unknown check 'smal-files'; expected one of "
                        + "[small-files, file-count, oversized-files, partition-skew, delete-ratio, equality-deletes, "
                        + "position-deletes, snapshot-count, snapshot-age, manifest-count, manifest-clustering, "
                        + "missing-statistics, stale-statistics, orphan-files]",
                "Cannot use cryo.small-files.critical=lots: 'lots' is not a share within 0..1 (0.2 = 20 %). "
                        + "All cryo.small-files.* table properties are ignored; small-files uses its configured policy",
                "Cannot use cryo.manifest-count.treshold: manifest-count has no setting 'treshold'; expected one of "
                        + "[enabled, warning, critical]. All cryo.manifest-count.* table properties are ignored; "
                        + "manifest-count uses its configured policy",

                "Cannot use cryo.snapshot-count.warning=900: the warning limit 900 (cryo.snapshot-count.warning) is "
                        + "above the critical limit 500 (default) of snapshot-count; a check warns before it turns "
                        + "critical. All cryo.snapshot-count.* table properties are ignored; snapshot-count uses its "
                        + "configured policy");
        assertThat(policy.check(Check.SMALL_FILES).limit(Setting.WARNING).orElseThrow().source()).isEqualTo(Source.DEFAULT);
        assertThat(policy.check(Check.SMALL_FILES).limit(Setting.CRITICAL).orElseThrow().source()).isEqualTo(Source.GLOBAL);
        assertThat(limit(policy, Check.SNAPSHOT_COUNT, Setting.WARNING)).isEqualTo(100.0);
    }

    private static double limit(TablePolicy policy, Check check, Setting setting) {
        return policy.check(check).limit(setting).orElseThrow().value();
    }

    private static Optional<Severity> severity(PolicyBook book, TableScanned scan, Check check) {
        TablePolicy policy = book.effectiveFor(scan.table(), scan.properties());
        return Scorer.grade(scan, policy, EVERY_SNAPSHOT_EXPIRABLE, NOW).deductions().stream()
                .filter(deduction -> deduction.check() == check)
                .map(Deduction::severity)
                .findFirst();
    }
}
