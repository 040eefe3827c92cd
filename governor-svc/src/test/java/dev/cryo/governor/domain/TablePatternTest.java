package dev.cryo.governor.domain;

import dev.cryo.contracts.TableId;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TablePatternTest {

    private static final TableId ORDERS = TableId.parse("lake.sales.orders");
    private static final TableId NESTED = TableId.parse("lake.sales.eu.orders");

    @Test
    void aSingleStarStaysWithinOneNamePart() {
        assertThat(TablePattern.parse("lake.sales.*").matches(ORDERS)).isTrue();
        assertThat(TablePattern.parse("lake.sales.*").matches(NESTED)).isFalse();
        assertThat(TablePattern.parse("lake.*.ord?rs").matches(ORDERS)).isTrue();
        assertThat(TablePattern.parse("lake.sales.order").matches(ORDERS)).isFalse();
    }

    @Test
    void aDoubleStarCrossesNameParts() {
        assertThat(TablePattern.parse("lake.**").matches(NESTED)).isTrue();
        assertThat(TablePattern.parse("**").matches(ORDERS)).isTrue();
        assertThat(TablePattern.parse("**.orders").matches(NESTED)).isTrue();
        assertThat(TablePattern.parse("other.**").matches(ORDERS)).isFalse();
    }

    @Test
    void regexCharactersMatchThemselves() {
        TableId odd = TableId.parse("lake.a+b.t(1)");
        assertThat(TablePattern.parse("lake.a+b.t(1)").matches(odd)).isTrue();
        assertThat(TablePattern.parse("lake.a+b.t(1)").matches(TableId.parse("lake.aab.t1"))).isFalse();
    }

    @Test
    void moreLiteralCharactersIsMoreSpecific() {
        assertThat(TablePattern.parse("lake.sales.orders").specificity())
                .isGreaterThan(TablePattern.parse("lake.sales.*").specificity());
        assertThat(TablePattern.parse("lake.sales.*").specificity())
                .isGreaterThan(TablePattern.parse("lake.**").specificity());
    }

    @Test
    void badPatternsSayWhatToWrite() {
        assertThatThrownBy(() -> TablePattern.parse(" "))
                .isInstanceOf(InvalidPolicyException.class)
                .hasMessage("Cannot use table pattern '': it is blank; write catalog.namespace.table, "
                        + "with * for any characters within a part and ** across parts");
        assertThatThrownBy(() -> TablePattern.parse("lake.[ab].t"))
                .hasMessage("Cannot use table pattern 'lake.[ab].t': '[' is not supported; "
                        + "use * (within a part), ** (across parts) or ? (one character)");
        assertThatThrownBy(() -> TablePattern.parse("lake.***"))
                .hasMessage("Cannot use table pattern 'lake.***': *** is not a wildcard; "
                        + "use * (within a part) or ** (across parts)");
        assertThatThrownBy(() -> TablePattern.parse("lake..t"))
                .hasMessage("Cannot use table pattern 'lake..t': it has an empty name part; write catalog.namespace.table");
        assertThatThrownBy(() -> TablePattern.parse("lake.*"))
                .hasMessage("Cannot use table pattern 'lake.*': it matches no table id catalog.namespace.table; "
                        + "add the missing parts or use **, e.g. lake.*.**");
    }
}
