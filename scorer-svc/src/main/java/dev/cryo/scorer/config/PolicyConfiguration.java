package dev.cryo.scorer.config;

import dev.cryo.platform.error.CryoException;
import dev.cryo.scorer.ScorerErrorCode;
import dev.cryo.scoring.InvalidPolicyException;
import dev.cryo.scoring.PolicyBook;
import dev.cryo.scoring.Setting;
import io.quarkus.logging.Log;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.Config;

import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns the configured overrides into the {@link PolicyBook}, at startup: an invalid override stops
 * the service with a message naming the key, instead of grading tables against a policy nobody meant.
 */
@ApplicationScoped
public class PolicyConfiguration {

    private static final String CHECKS = "cryo.scorer.checks.";
    private static final String POLICIES = "cryo.scorer.policies.";
    private static final String PART = "(\"[^\"]+\"|[^.\"]+)";
    private static final Pattern GLOBAL_KEY = Pattern.compile(Pattern.quote(CHECKS) + PART + "\\.(.+)");
    private static final Pattern PATTERN_KEY = Pattern.compile(Pattern.quote(POLICIES) + PART + "\\.(.+)");
    private static final Pattern PATTERN_CHECK_KEY = Pattern.compile("checks\\." + PART + "\\.([^.]+)");

    @Produces
    @Singleton
    @Startup
    PolicyBook policyBook(ScorerConfig config, Config rawConfig) {
        PolicyBook book = toPolicyBook(config, rawConfig.getPropertyNames());
        Log.infof("Scoring policy: %d global override(s), patterns %s", config.checks().size(), book.patterns());
        return book;
    }

    /**
     * @param propertyNames every configured name, to catch misspelt settings that the mapping would ignore
     * @throws CryoException INVALID_POLICY naming the key
     */
    static PolicyBook toPolicyBook(ScorerConfig config, Iterable<String> propertyNames) {
        try {
            for (String name : propertyNames) {
                checkSettingName(name);
            }
            PolicyBook.Builder builder = PolicyBook.builder();
            config.checks().forEach((check, settings) -> add(settings, CHECKS + quoted(check) + ".",
                    (setting, value, key) -> builder.global(check, setting, value, key)));
            config.policies().forEach((glob, pattern) -> pattern.checks().forEach((check, settings) ->
                    add(settings, POLICIES + quoted(glob) + ".checks." + quoted(check) + ".",
                            (setting, value, key) -> builder.pattern(glob, check, setting, value, key))));
            return builder.build();
        } catch (InvalidPolicyException e) {
            throw new CryoException(ScorerErrorCode.INVALID_POLICY, e.getMessage(), e);
        }
    }

    private static void checkSettingName(String name) {
        String setting = null;
        Matcher global = GLOBAL_KEY.matcher(name);
        if (global.matches()) {
            setting = global.group(2);
        } else {
            Matcher pattern = PATTERN_KEY.matcher(name);
            if (pattern.matches()) {
                Matcher check = PATTERN_CHECK_KEY.matcher(pattern.group(2));
                if (!check.matches()) {
                    throw new InvalidPolicyException("Cannot use " + name + ": expected " + POLICIES
                            + "\"<pattern>\".checks.\"<check>\".<setting>");
                }
                setting = check.group(2);
            }
        }
        if (setting != null && Setting.fromKey(setting).isEmpty()) {
            throw new InvalidPolicyException("Cannot use " + name + ": unknown setting '" + setting
                    + "'; expected one of enabled, warning, critical, warning-bytes, critical-bytes");
        }
    }

    private interface Sink {
        void accept(Setting setting, String value, String key);
    }

    private static void add(ScorerConfig.CheckSettings settings, String prefix, Sink sink) {
        Map<Setting, Optional<String>> values = Map.of(
                Setting.ENABLED, settings.enabled(),
                Setting.WARNING, settings.warning(),
                Setting.CRITICAL, settings.critical(),
                Setting.WARNING_BYTES, settings.warningBytes(),
                Setting.CRITICAL_BYTES, settings.criticalBytes());
        for (Setting setting : Setting.values()) {
            values.get(setting).ifPresent(value -> sink.accept(setting, value, prefix + setting.key()));
        }
    }

    private static String quoted(String part) {
        return "\"" + part + "\"";
    }
}
