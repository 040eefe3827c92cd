package dev.cryo.console.domain;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class NoticeTest {

    @Test
    void aNoticeSaysWhatTheActionDidWithItsReference() {
        assertThat(Notice.fromId("fix-requested")).hasValueSatisfying(notice -> assertThat(notice.text("3f2a-77"))
                .isEqualTo("Fix requested: the scanner published change 3f2a-77. The scan, grade, plan and job follow "
                        + "below as they happen."));
        assertThat(Notice.fromId("signed-in").orElseThrow().text(null))
                .isEqualTo("Signed in as an operator: actions are enabled.");
        assertThat(Notice.fromId("policy-saved").orElseThrow().text("lake.sales.*")).isEqualTo("Policy saved for lake.sales.*.");
    }

    @Test
    void aLinkCannotMakeTheConsoleSayAnythingElse() {
        assertThat(Notice.fromId("you-won")).isEmpty();
        assertThat(Notice.fromId(null)).isEmpty();
        assertThat(Notice.fromId("paused").orElseThrow().text("<b>gone</b> all tables deleted"))
                .isEqualTo("Paused: the governor admits no job for this table until it is resumed (pause (unknown)).");
    }
}
