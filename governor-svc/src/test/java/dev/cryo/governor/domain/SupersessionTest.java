package dev.cryo.governor.domain;

import dev.cryo.contracts.TableId;
import dev.cryo.governor.domain.Supersession.KnownPlan;
import dev.cryo.governor.domain.Supersession.Stage;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class SupersessionTest {

    private static final TableId ORDERS = TableId.parse("lake.sales.orders");

    @Test
    void aQueuedOlderPlanIsDroppedWithTheReason() {
        assertThat(Supersession.onArrival("new", ORDERS, Optional.of(new KnownPlan("old", ORDERS, Stage.QUEUED)),
                Optional.empty()))
                .isEqualTo(new Supersession.DropOlder("old", "plan old of lake.sales.orders was replaced by newer plan "
                        + "new before it started"));
    }

    @Test
    void anOlderPlanThatAlreadyRunsIsKeptAndTheNewOneWaits() {
        assertThat(Supersession.onArrival("new", ORDERS, Optional.of(new KnownPlan("old", ORDERS, Stage.ADMITTED)),
                Optional.empty())).isEqualTo(new Supersession.QueueArriving());
        assertThat(Supersession.onArrival("new", ORDERS, Optional.of(new KnownPlan("old", ORDERS, Stage.DONE)),
                Optional.empty())).isEqualTo(new Supersession.QueueArriving());
    }

    @Test
    void anUnknownOrForeignOlderPlanChangesNothing() {
        assertThat(Supersession.onArrival("new", ORDERS, Optional.empty(), Optional.empty()))
                .isEqualTo(new Supersession.QueueArriving());
        assertThat(Supersession.onArrival("new", ORDERS,
                Optional.of(new KnownPlan("old", TableId.parse("lake.sales.other"), Stage.QUEUED)), Optional.empty()))
                .isEqualTo(new Supersession.QueueArriving());
    }

    @Test
    void aPlanThatArrivesAfterItsReplacementIsDroppedAtOnce() {
        assertThat(Supersession.onArrival("old", ORDERS, Optional.empty(),
                Optional.of(new KnownPlan("new", ORDERS, Stage.QUEUED))))
                .isEqualTo(new Supersession.DropArriving("plan old of lake.sales.orders was replaced by newer plan new, "
                        + "which arrived first"));
    }
}
