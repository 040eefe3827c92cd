package dev.cryo.contracts;

import dev.cryo.contracts.json.EventJson;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TableIdTest {

    @Test
    void parsesCatalogNamespaceAndTable() {
        TableId id = TableId.parse("lakehouse.analytics.page_views");

        assertThat(id.catalog()).isEqualTo("lakehouse");
        assertThat(id.namespace()).containsExactly("analytics");
        assertThat(id.table()).isEqualTo("page_views");
        assertThat(id).hasToString("lakehouse.analytics.page_views");
    }

    @Test
    void keepsMultiLevelNamespaces() {
        TableId id = TableId.parse("lakehouse.sales.emea.orders");

        assertThat(id.namespace()).containsExactly("sales", "emea");
        assertThat(id.namespaceName()).isEqualTo("sales.emea");
        assertThat(TableId.parse(id.toString())).isEqualTo(id);
    }

    @Test
    void acceptsUnicodeAndQuotesThatSqlRenderersMustEscape() {
        TableId id = new TableId("cat", List.of("nämespace"), "it's \"quoted\"");

        assertThat(TableId.parse(id.toString())).isEqualTo(id);
    }

    @Test
    void rejectsTooFewParts() {
        assertThatThrownBy(() -> TableId.parse("analytics.page_views"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot parse table id 'analytics.page_views': expected catalog.namespace.table");
    }

    @Test
    void rejectsEmptyParts() {
        assertThatThrownBy(() -> TableId.parse("lakehouse..page_views"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot create table id: namespace level is blank");
    }

    @Test
    void rejectsControlCharactersAndBackticks() {
        assertThatThrownBy(() -> new TableId("cat", List.of("ns"), "bad\nname"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot create table id: table 'bad?name' contains '.', '`' or a control character");
        assertThatThrownBy(() -> new TableId("cat", List.of("ns"), "bad`name"))
                .hasMessageContaining("contains '.', '`' or a control character");
    }

    @Test
    void rejectsOverlongNames() {
        assertThatThrownBy(() -> TableId.of("cat", "ns", "x".repeat(256)))
                .hasMessage("Cannot create table id: table is longer than 255 characters");
    }

    @Test
    void serializesAsOneString() {
        String json = EventJson.writeString(TableId.parse("a.b.c"));

        assertThat(json).isEqualTo("\"a.b.c\"");
    }
}
