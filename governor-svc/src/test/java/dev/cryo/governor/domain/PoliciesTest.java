package dev.cryo.governor.domain;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.TableId;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PoliciesTest {

    private static final TableId ORDERS = TableId.parse("lake.sales.orders");
    private static final Instant AT = Instant.parse("2026-06-15T08:00:00Z");

    @Test
    void withoutRulesATableGetsTheDefaults() {
        TablePolicy policy = Policies.resolve(ORDERS, List.of(), List.of(), Duration.ofMinutes(10), Engine.NATIVE);

        assertThat(policy).isEqualTo(TablePolicy.of(Duration.ofMinutes(10), Engine.NATIVE));
    }

    @Test
    void eachSettingComesFromTheMostSpecificRuleThatSetsIt() {
        PolicyRule catalog = rule("lake.**", Optional.of(Duration.ofHours(1)),
                Optional.of(List.of(MaintenanceWindow.parse("22:00-06:00"))), Optional.of(Engine.SPARK));
        PolicyRule namespace = rule("lake.sales.*", Optional.empty(), Optional.empty(), Optional.of(Engine.TRINO));
        PolicyRule table = rule("lake.sales.orders", Optional.of(Duration.ZERO), Optional.empty(), Optional.empty());
        PolicyRule elsewhere = rule("other.**", Optional.of(Duration.ofDays(1)), Optional.empty(), Optional.empty());

        TablePolicy policy = Policies.resolve(ORDERS, List.of(), List.of(catalog, elsewhere, table, namespace),
                Duration.ofMinutes(10), Engine.NATIVE);

        assertThat(policy.cooldown()).isEqualTo(Duration.ZERO);
        assertThat(policy.engine()).isEqualTo(Engine.TRINO);
        assertThat(policy.windows()).extracting(MaintenanceWindow::expression).containsExactly("22:00-06:00");
        assertThat(policy.rules()).containsExactly("lake.sales.orders", "lake.sales.*", "lake.**");
        assertThat(policy.pause()).isEmpty();
    }

    @Test
    void anEmptyWindowListLiftsTheWindowsOfABroaderRule() {
        PolicyRule catalog = rule("lake.**", Optional.empty(),
                Optional.of(List.of(MaintenanceWindow.parse("22:00-06:00"))), Optional.empty());
        PolicyRule table = rule("lake.sales.orders", Optional.empty(), Optional.of(List.of()), Optional.empty());

        TablePolicy policy = Policies.resolve(ORDERS, List.of(), List.of(catalog, table), Duration.ZERO, Engine.NATIVE);

        assertThat(policy.windows()).isEmpty();
    }

    @Test
    void anyMatchingPausePausesTheTableAndTheMostSpecificIsNamed() {
        Pause broad = new Pause("p1", TablePattern.parse("**"), "freeze", "operator:bob", AT);
        Pause narrow = new Pause("p2", TablePattern.parse("lake.sales.*"), "audit", "operator:alice", AT.plusSeconds(5));
        Pause other = new Pause("p3", TablePattern.parse("other.a.b"), "x", "operator:carol", AT);

        assertThat(Policies.resolve(ORDERS, List.of(broad, other, narrow), List.of(), Duration.ZERO, Engine.NATIVE)
                .pause()).contains(narrow);
        assertThat(Policies.resolve(ORDERS, List.of(other), List.of(), Duration.ZERO, Engine.NATIVE).pause()).isEmpty();
    }

    @Test
    void aNegativeCooldownIsRefused() {
        assertThatThrownBy(() -> rule("lake.**", Optional.of(Duration.ofMinutes(-1)), Optional.empty(), Optional.empty()))
                .isInstanceOf(InvalidPolicyException.class)
                .hasMessage("Cannot use cooldown PT-1M for 'lake.**': it is negative; use PT0S for none");
    }

    private static PolicyRule rule(String pattern, Optional<Duration> cooldown, Optional<List<MaintenanceWindow>> windows,
                                   Optional<Engine> engine) {
        return new PolicyRule(TablePattern.parse(pattern), cooldown, windows, engine, "operator:alice", AT);
    }
}
