package dev.cryo.governor.persistence;

import dev.cryo.governor.domain.Pause;
import dev.cryo.governor.domain.TablePattern;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;

/** A row of {@code pause}: an operator's pause of the tables a pattern matches. */
@Entity
@Table(name = "pause")
public class PauseEntity extends PanacheEntityBase {

    @Id
    @Column(name = "pause_id")
    public String pauseId;

    @Column(name = "pattern", nullable = false)
    public String pattern;

    @Column(name = "reason", nullable = false)
    public String reason;

    @Column(name = "paused_by", nullable = false)
    public String pausedBy;

    @Column(name = "paused_at", nullable = false)
    public Instant pausedAt;

    static PauseEntity of(Pause pause) {
        PauseEntity entity = new PauseEntity();
        entity.pauseId = pause.id();
        entity.pattern = pause.pattern().text();
        entity.reason = pause.reason();
        entity.pausedBy = pause.pausedBy();
        entity.pausedAt = pause.pausedAt();
        return entity;
    }

    Pause toPause() {
        return new Pause(pauseId, TablePattern.parse(pattern), reason, pausedBy, pausedAt);
    }
}
