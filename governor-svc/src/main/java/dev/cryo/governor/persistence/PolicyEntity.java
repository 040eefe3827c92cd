package dev.cryo.governor.persistence;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import dev.cryo.contracts.Engine;
import dev.cryo.contracts.json.EventJson;
import dev.cryo.governor.GovernorErrorCode;
import dev.cryo.governor.domain.MaintenanceWindow;
import dev.cryo.governor.domain.PolicyRule;
import dev.cryo.governor.domain.TablePattern;
import dev.cryo.platform.error.CryoException;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A row of {@code policy}: an operator's cooldown, maintenance windows and engine for the tables a
 * pattern matches. A null setting leaves it to broader patterns or the default.
 */
@Entity
@Table(name = "policy")
public class PolicyEntity extends PanacheEntityBase {

    private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {
    };

    @Id
    @Column(name = "pattern")
    public String pattern;

    /** ISO-8601 duration. */
    @Column(name = "cooldown")
    public String cooldown;

    /** JSON array of window expressions. */
    @Column(name = "windows")
    public String windows;

    @Column(name = "engine")
    public String engine;

    @Column(name = "updated_by", nullable = false)
    public String updatedBy;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    /** Sets every column from the rule (the pattern is the id and stays). */
    void set(PolicyRule rule) {
        cooldown = rule.cooldown().map(Duration::toString).orElse(null);
        windows = rule.windows().map(list -> EventJson.writeString(list.stream().map(MaintenanceWindow::expression).toList()))
                .orElse(null);
        engine = rule.engine().map(Engine::id).orElse(null);
        updatedBy = rule.updatedBy();
        updatedAt = rule.updatedAt();
    }

    PolicyRule toRule() {
        Optional<List<MaintenanceWindow>> parsed;
        try {
            parsed = windows == null ? Optional.empty() : Optional.of(EventJson.mapper().readValue(windows, STRINGS)
                    .stream().map(MaintenanceWindow::parse).toList());
        } catch (JsonProcessingException e) {
            throw new CryoException(GovernorErrorCode.STORE_UNAVAILABLE, "Cannot read the policy of '" + pattern
                    + "': its stored windows are unreadable: " + e.getMessage(), e);
        }
        return new PolicyRule(TablePattern.parse(pattern), Optional.ofNullable(cooldown).map(Duration::parse), parsed,
                Optional.ofNullable(engine).map(Engine::fromId), updatedBy, updatedAt);
    }
}
