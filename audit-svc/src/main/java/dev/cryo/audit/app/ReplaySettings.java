package dev.cryo.audit.app;

import dev.cryo.audit.config.AuditConfig;

import java.time.Duration;

/** The settings a replay runs with, from {@code cryo.audit.replay.*} and {@code cryo.audit.verify.*}. */
record ReplaySettings(int batchSize, Duration liveCatchUpTimeout, Duration progressInterval, int verifyFetchSize,
                      int maxReportedDifferences) {

    static ReplaySettings of(AuditConfig config) {
        return new ReplaySettings(config.replay().batchSize(), config.replay().liveCatchUpTimeout(),
                config.replay().progressInterval(), config.verify().fetchSize(), config.replay().maxReportedDifferences());
    }
}
