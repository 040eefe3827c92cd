package dev.cryo.enginesql;

import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.List;

import static dev.cryo.enginesql.Fixtures.chunk;
import static dev.cryo.enginesql.Fixtures.identity;
import static dev.cryo.enginesql.Fixtures.operation;
import static dev.cryo.enginesql.Fixtures.partition;
import static dev.cryo.enginesql.SqlTokens.identifier;
import static dev.cryo.enginesql.SqlTokens.string;
import static dev.cryo.enginesql.SqlTokens.symbol;
import static dev.cryo.enginesql.SqlTokens.word;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzed names and values, read back by the independent tokenizer: whatever they hold, the
 * statement keeps the intended structure and each input comes back as exactly one token with
 * its exact content.
 */
class RenderingPropertiesTest {

    private static final List<String> FRAGMENTS = List.of("'", "''", "\"", "`", "\\", "\\'", "\\u0027", "\n", "\r", "\t",
            "\0", "--", "/*", "*/", ";", " OR 1=1", "U&'", "😀", "é", "\u202E", "$partition", " ");

    @Provide
    Arbitrary<String> hostileText() {
        Arbitrary<String> fragments = Arbitraries.of(FRAGMENTS);
        Arbitrary<String> anything = Arbitraries.strings().all().ofMaxLength(6).filter(RenderingPropertiesTest::validUtf16);
        return Arbitraries.oneOf(fragments, anything).list().ofMaxSize(8).map(parts -> String.join("", parts));
    }

    @Provide
    Arbitrary<String> hostileName() {
        return hostileText().filter(name -> !name.isBlank() && name.chars().noneMatch(Character::isISOControl));
    }

    @Property(tries = 400)
    void trinoOptimizeKeepsItsStructure(@ForAll("hostileName") String schema, @ForAll("hostileName") String column,
                                        @ForAll("hostileText") String value) {
        // Trino folds schema names to lower case (one with an upper-case letter is not expressible there).
        TableId table = table(schema.toLowerCase(java.util.Locale.ROOT));
        var chunk = chunk(partition(0, identity(column, "string", value)));
        var statements = ((Rendering.Statements) Fixtures.trino().render(table, operation(Operation.OPTIMIZE, chunk), chunk))
                .statements();
        assertThat(SqlTokens.trino(statements.get(1))).containsExactly(
                word("ALTER"), word("TABLE"), identifier("lakehouse"), symbol("."), identifier(table.namespace().get(0)),
                symbol("."), identifier(table.table()), word("EXECUTE"), word("optimize"), symbol("("),
                word("file_size_threshold"), symbol("=>"), string((Fixtures.TARGET_BYTES / 4 * 3) + "B"), symbol(")"),
                word("WHERE"), identifier(column), symbol("="), string(value));
    }

    @Property(tries = 400)
    void sparkRewriteKeepsItsStructure(@ForAll("hostileName") String schema, @ForAll("hostileName") String column,
                                       @ForAll("hostileText") String value) {
        TableId table = table(schema);
        var chunk = chunk(partition(0, identity(column, "string", value)));
        String sql = ((Rendering.Statements) Fixtures.spark().render(table, operation(Operation.OPTIMIZE, chunk), chunk))
                .statements().get(0);
        List<SqlTokens.Token> tokens = SqlTokens.spark(sql);
        assertThat(tokens.subList(0, 9)).containsExactly(word("CALL"), identifier("lakehouse"), symbol("."), word("system"),
                symbol("."), word("rewrite_data_files"), symbol("("), word("table"), symbol("=>"));
        assertThat(SqlTokens.spark(tokens.get(9).text())).containsExactly(
                identifier(table.namespace().get(0)), symbol("."), identifier(table.table()));
        assertThat(InjectionTest.sparkWhere(sql)).containsExactly(identifier(column), symbol("="), string(value));
        assertThat(tokens.subList(10, 14)).containsExactly(symbol(","), word("where"), symbol("=>"),
                tokens.get(13));
        assertThat(tokens.subList(14, 18)).containsExactly(symbol(","), word("options"), symbol("=>"), word("map"));
        assertThat(tokens.get(tokens.size() - 1)).isEqualTo(symbol(")"));
    }

    /** TableId forbids '.', '`' and control characters; everything else must be quoted safely. */
    private static TableId table(String schema) {
        String cleaned = schema.replace(".", "_").replace("`", "_");
        return new TableId("lakehouse", List.of(cleaned.isBlank() ? "s" + cleaned : cleaned), cleaned.isBlank() ? "t" : cleaned + "_t");
    }

    private static boolean validUtf16(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }
}
