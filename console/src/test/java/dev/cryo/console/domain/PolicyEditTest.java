package dev.cryo.console.domain;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PolicyEditTest {

    @Test
    void blankFieldsAreLeftToBroaderPatterns() {
        PolicyEdit edit = PolicyEdit.parse(" PT30M ", "", "");

        assertThat(edit).isEqualTo(new PolicyEdit("PT30M", null, null));
    }

    @Test
    void windowsAreOnePerLineAndAnyMeansAnyTime() {
        assertThat(PolicyEdit.parse("", "22:00-06:00 Europe/Berlin\r\n\n cron(0 22 * * MON-FRI) PT4H \n", "TRINO"))
                .isEqualTo(new PolicyEdit(null, List.of("22:00-06:00 Europe/Berlin", "cron(0 22 * * MON-FRI) PT4H"),
                        "trino"));
        assertThat(PolicyEdit.parse(null, " Any ", null).windows()).isEmpty();
        assertThat(PolicyEdit.windowsText(List.of())).isEqualTo("any");
        assertThat(PolicyEdit.windowsText(null)).isEmpty();
        assertThat(PolicyEdit.windowsText(List.of("a", "b"))).isEqualTo("a\nb");
    }

    @Test
    void badFieldsAreRefusedSayingWhatToWrite() {
        assertThatThrownBy(() -> PolicyEdit.parse("30 minutes", null, null))
                .isInstanceOf(InvalidInputException.class)
                .hasMessage("Cannot save the policy: the cooldown '30 minutes' is not an ISO-8601 duration; "
                        + "write PT30M for 30 minutes or PT2H for two hours");
        assertThatThrownBy(() -> PolicyEdit.parse("-PT1M", null, null))
                .hasMessage("Cannot save the policy: the cooldown '-PT1M' is negative; write a duration such as PT30M");
        assertThatThrownBy(() -> PolicyEdit.parse(null, null, "duckdb"))
                .hasMessage("Cannot save the policy: engine 'duckdb' is not native, trino or spark");
        assertThatThrownBy(() -> PolicyEdit.parse(" ", " ", " "))
                .hasMessage("Cannot save an empty policy: set a cooldown, windows or an engine, "
                        + "or remove the table's own policy");
        assertThatThrownBy(() -> PolicyEdit.parse(null, "x".repeat(201), null))
                .hasMessage("Cannot save the policy: a window is longer than 200 characters");
        assertThatThrownBy(() -> PolicyEdit.parse(null, "w\n".repeat(21), null))
                .hasMessage("Cannot save the policy: it has 21 windows, at most 20 are accepted");
    }
}
