package dev.cryo.cli.command;

import dev.cryo.cli.FakeCryo;
import dev.cryo.cli.api.Service;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AuditVerifyCommandTest {

    FakeCryo cryo;

    @BeforeEach
    void start() throws Exception {
        cryo = new FakeCryo();
    }

    @AfterEach
    void stop() {
        cryo.close();
    }

    @Test
    void anIntactChainSaysHowItIsAnchored() {
        cryo.json(Service.AUDIT, "GET", "/api/v1/audit/verify", """
                {"status":"OK","rowsChecked":1200,"rowsArchived":0,"lastId":1200,"lastHash":"ab12","firstBreak":null,
                 "breakCount":0,"brokenRowIds":[],"durationMillis":35,
                 "anchoring":{"method":"kafka-anchors","topic":"cryo.audit-anchors.v1","status":"OK","anchoredId":1180,
                  "anchoredHash":"cd34","anchoredAt":"2026-12-02T10:00:00Z",
                  "message":"the chain leads to row 1180 (anchored 2026-12-02T10:00:00Z) with the anchored hash"}}""");

        FakeCryo.Run run = cryo.run("audit", "verify");

        assertThat(run.exit()).isZero();
        assertThat(run.out()).contains("chain: OK, 1200 rows checked (0 archived), last row 1200 hash ab12",
                "anchoring: kafka-anchors on cryo.audit-anchors.v1: OK: the chain leads to row 1180");
    }

    @Test
    void aReChainedRewriteIsAFindingThoughEveryLinkHolds() {
        cryo.json(Service.AUDIT, "GET", "/api/v1/audit/verify", """
                {"status":"BROKEN","rowsChecked":1200,"rowsArchived":0,"lastId":1200,"lastHash":"ff00","firstBreak":null,
                 "breakCount":0,"brokenRowIds":[],"durationMillis":35,
                 "anchoring":{"method":"kafka-anchors","topic":"cryo.audit-anchors.v1","status":"MISMATCH","anchoredId":1180,
                  "anchoredHash":"cd34","anchoredAt":"2026-12-02T10:00:00Z",
                  "message":"row 1180 (anchored 2026-12-02T10:00:00Z) has hash ee11 but was anchored with cd34: rows up to it were rewritten and the chain recomputed after them"}}""");

        FakeCryo.Run run = cryo.run("audit", "verify");

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.out()).contains("chain: BROKEN", "anchoring: kafka-anchors on cryo.audit-anchors.v1: MISMATCH: row 1180",
                "rows up to it were rewritten");
    }
}
