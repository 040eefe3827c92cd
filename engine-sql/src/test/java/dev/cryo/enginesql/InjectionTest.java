package dev.cryo.enginesql;

import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.enginesql.expression.CannotRenderException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static dev.cryo.enginesql.Fixtures.chunk;
import static dev.cryo.enginesql.Fixtures.field;
import static dev.cryo.enginesql.Fixtures.identity;
import static dev.cryo.enginesql.Fixtures.operation;
import static dev.cryo.enginesql.Fixtures.partition;
import static dev.cryo.enginesql.SqlTokens.identifier;
import static dev.cryo.enginesql.SqlTokens.string;
import static dev.cryo.enginesql.SqlTokens.symbol;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Hostile table names, column names and partition values reach each dialect as exactly one
 * quoted name or one literal with exactly their content: the statement read back by an
 * independent tokenizer has the intended structure and no comment, whatever the input holds.
 */
class InjectionTest {

    static final List<String> HOSTILE_VALUES = List.of(
            "'", "''", "\\", "\\'", "'; DROP TABLE t; --", "x' OR '1'='1", "a\nb", "tab\there", "nul\0byte",
            "\r\n", "é ü 日本語", "😀 emoji", "\u202Eevil", "\\u0027", "\\n", "\" OR \"1\"=\"1", "/* x */", "-- x",
            "`", "``", "$partition", "null", "U&'\\0027'", "}{${jndi:x}", "%27%22", " leading and trailing ");

    static final List<String> HOSTILE_NAMES = List.of(
            "co\"l", "co`l", "it's", "back\\slash", "x\"; DROP TABLE t; --", "日本", "😀", "a b", "$partition",
            "``", "\"\"", "select");

    static Stream<String> values() {
        return HOSTILE_VALUES.stream();
    }

    static Stream<String> names() {
        return HOSTILE_NAMES.stream();
    }

    @ParameterizedTest
    @MethodSource("values")
    void aHostilePartitionValueIsOneTrinoLiteral(String value) {
        String sql = optimizeOn(Fixtures.trino(), "category", value).get(1);
        List<SqlTokens.Token> tokens = SqlTokens.trino(sql);
        assertThat(tokens).noneMatch(token -> token.kind() == SqlTokens.Kind.COMMENT);
        assertThat(afterWhere(tokens)).containsExactly(identifier("category"), symbol("="), string(value));
    }

    @ParameterizedTest
    @MethodSource("values")
    void aHostilePartitionValueIsOneSparkLiteralInsideTheWhereLiteral(String value) {
        String sql = optimizeOn(Fixtures.spark(), "category", value).get(0);
        assertThat(sparkWhere(sql)).containsExactly(identifier("category"), symbol("="), string(value));
    }

    @ParameterizedTest
    @MethodSource("names")
    void aHostileColumnNameIsOneTrinoIdentifier(String column) {
        String sql = optimizeOn(Fixtures.trino(), column, "v").get(1);
        assertThat(afterWhere(SqlTokens.trino(sql))).containsExactly(identifier(column), symbol("="), string("v"));
    }

    @ParameterizedTest
    @MethodSource("names")
    void aHostileColumnNameIsOneSparkIdentifier(String column) {
        String sql = optimizeOn(Fixtures.spark(), column, "v").get(0);
        assertThat(sparkWhere(sql)).containsExactly(identifier(column), symbol("="), string("v"));
    }

    @ParameterizedTest
    @MethodSource("names")
    void hostileTableNamesAreQuotedIdentifiersOnTrino(String name) {
        // Trino folds names to lower case (one with an upper-case letter is not expressible there at all).
        String lower = name.replace("`", "'").toLowerCase(java.util.Locale.ROOT);
        TableId table = new TableId("lake'house", List.of(lower), lower + "_t");
        String sql = ((Rendering.Statements) Fixtures.trino().render(table, operation(Operation.COMPUTE_STATISTICS), null))
                .statements().get(0);
        assertThat(SqlTokens.trino(sql)).containsExactly(SqlTokens.word("ANALYZE"), identifier("lake'house"), symbol("."),
                identifier(table.namespace().get(0)), symbol("."), identifier(table.table()));
    }

    @ParameterizedTest
    @MethodSource("names")
    void hostileTableNamesAreQuotedInsideSparksTableArgument(String name) {
        TableId table = new TableId("lake'house", List.of(name.replace("`", "'")), name.replace("`", "'") + "_t");
        String sql = ((Rendering.Statements) Fixtures.spark().render(table, operation(Operation.OPTIMIZE_MANIFESTS), null))
                .statements().get(0);
        List<SqlTokens.Token> tokens = SqlTokens.spark(sql);
        assertThat(tokens.subList(0, 6)).containsExactly(SqlTokens.word("CALL"), identifier("lake'house"), symbol("."),
                SqlTokens.word("system"), symbol("."), SqlTokens.word("rewrite_manifests"));
        String tableArgument = tokens.get(9).text();
        assertThat(SqlTokens.spark(tableArgument)).containsExactly(
                identifier(table.namespace().get(0)), symbol("."), identifier(table.table()));
    }

    @Test
    void aColumnNameWithAControlCharacterIsRefused() {
        for (SqlRenderer renderer : List.of(Fixtures.trino(), Fixtures.spark())) {
            assertThatThrownBy(() -> optimizeOn(renderer, "bad\ncolumn", "v"))
                    .isInstanceOf(CannotRenderException.class)
                    .hasMessage("Cannot render column of partition field bad?column (identity of bad?column, string) "
                            + "'bad?column': it contains the control character U+000A");
        }
    }

    @Test
    void aValueThatIsNotValidUtf16IsRefused() {
        for (SqlRenderer renderer : List.of(Fixtures.trino(), Fixtures.spark())) {
            assertThatThrownBy(() -> optimizeOn(renderer, "category", "a\uD800b"))
                    .isInstanceOf(CannotRenderException.class)
                    .hasMessageContaining("contains the unpaired surrogate U+D800 (not valid UTF-16)");
        }
    }

    @Test
    void aValueThatIsNotOfItsSourceTypeIsRefused() {
        var chunk = chunk(partition(0, identity("day", "date", "19753; DROP TABLE t")));
        for (SqlRenderer renderer : List.of(Fixtures.trino(), Fixtures.spark())) {
            assertThatThrownBy(() -> renderer.render(GoldenCases.TABLE, operation(Operation.OPTIMIZE, chunk), chunk))
                    .isInstanceOf(CannotRenderException.class)
                    .hasMessage("Cannot render partition field day (identity of day, date): '19753; DROP TABLE t' is not "
                            + "a value of source type date (not the text form of that type)");
        }
    }

    @Test
    void aRangeBoundThatIsNotAnIsoTimestampIsRefused() {
        var chunk = chunk(partition(0, field("ts_day", "ts", "timestamptz", "day", "19753",
                "2024-01-31T00:00:00Z' OR 1=1 --", "2024-02-01T00:00:00Z")));
        for (SqlRenderer renderer : List.of(Fixtures.trino(), Fixtures.spark())) {
            assertThatThrownBy(() -> renderer.render(GoldenCases.TABLE, operation(Operation.OPTIMIZE, chunk), chunk))
                    .isInstanceOf(CannotRenderException.class)
                    .hasMessageStartingWith("Cannot render lower bound of partition field ts_day (day of ts, timestamptz): "
                            + "'2024-01-31T00:00:00Z' OR 1=1 --' is not a value of source type timestamptz");
        }
    }

    @Test
    void aBucketNumberOutsideTheBucketCountIsRefused() {
        var chunk = chunk(partition(0, field("id_bucket", "id", "long", "bucket[16]", "16", null, null)));
        for (SqlRenderer renderer : List.of(Fixtures.trino(), Fixtures.spark())) {
            assertThatThrownBy(() -> renderer.render(GoldenCases.TABLE, operation(Operation.OPTIMIZE, chunk), chunk))
                    .isInstanceOf(CannotRenderException.class)
                    .hasMessage("Cannot render partition field id_bucket (bucket[16] of id, long): '16' is not a bucket "
                            + "number (outside 0..15)");
        }
    }

    private static List<String> optimizeOn(SqlRenderer renderer, String column, String value) {
        var chunk = chunk(partition(0, identity(column, "string", value)));
        Rendering rendering = renderer.render(GoldenCases.TABLE, operation(Operation.OPTIMIZE, chunk), chunk);
        return ((Rendering.Statements) rendering).statements();
    }

    private static List<SqlTokens.Token> afterWhere(List<SqlTokens.Token> tokens) {
        int where = tokens.indexOf(SqlTokens.word("WHERE"));
        assertThat(where).as("WHERE in %s", tokens).isPositive();
        return tokens.subList(where + 1, tokens.size());
    }

    /** The where argument of a Spark CALL, read as a literal and then as an expression. */
    static List<SqlTokens.Token> sparkWhere(String sql) {
        List<SqlTokens.Token> tokens = SqlTokens.spark(sql);
        assertThat(tokens).noneMatch(token -> token.kind() == SqlTokens.Kind.COMMENT);
        int where = tokens.indexOf(SqlTokens.word("where"));
        assertThat(tokens.get(where + 1)).isEqualTo(symbol("=>"));
        SqlTokens.Token expression = tokens.get(where + 2);
        assertThat(expression.kind()).isEqualTo(SqlTokens.Kind.STRING);
        assertThat(tokens.get(where + 3)).isEqualTo(symbol(","));
        List<SqlTokens.Token> inner = SqlTokens.spark(expression.text());
        assertThat(inner).noneMatch(token -> token.kind() == SqlTokens.Kind.COMMENT);
        return inner;
    }
}
