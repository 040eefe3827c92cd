package dev.cryo.scoring;

import java.util.Arrays;
import java.util.Optional;

/**
 * What an operator can override per check, named as in keys: {@code cryo.<check>.<setting>} in
 * table properties and {@code cryo.scorer.checks."<check>".<setting>} in configuration.
 */
public enum Setting {
    /** Whether the check runs at all ({@code true} or {@code false}). */
    ENABLED("enabled"),
    /** The limit from which the check costs a warning. */
    WARNING("warning"),
    /** The limit from which the check costs a critical finding. */
    CRITICAL("critical"),
    /** orphan-files only: the absolute warning limit, next to the share of table bytes. */
    WARNING_BYTES("warning-bytes"),
    /** orphan-files only: the absolute critical limit, next to the share of table bytes. */
    CRITICAL_BYTES("critical-bytes");

    private final String key;

    Setting(String key) {
        this.key = key;
    }

    /** The key suffix, e.g. {@code warning-bytes}. */
    public String key() {
        return key;
    }

    public static Optional<Setting> fromKey(String key) {
        return Arrays.stream(values()).filter(setting -> setting.key.equals(key)).findFirst();
    }
}
