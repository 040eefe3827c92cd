package dev.cryo.scanner.rest;

import dev.cryo.contracts.event.ChangeSource;
import dev.cryo.contracts.event.TableChanged;
import dev.cryo.platform.error.CryoException;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.time.Instant;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Fuzzes the webhook parser: whatever the body (random text, random JSON, JSON with hostile names), it
 * either becomes a TableChanged of a configured catalog whose parts are exactly the ones sent, or is
 * refused with a "Cannot accept notification: …" CryoException; never another exception.
 */
class NotificationParserPropertiesTest {

    static final Instant NOW = Instant.parse("2026-11-30T10:00:00Z");
    static final NotificationParser PARSER = new NotificationParser(64 * 1024, Set.of("lake"));

    @Property(tries = 1000)
    void anyTextIsReadOrRefusedWithTheReason(@ForAll("text") String body) {
        assertReadOrRefused(body);
    }

    @Property(tries = 1000)
    void anyObjectWithHostileNamesIsReadExactlyOrRefusedWithTheReason(@ForAll("notification") String body) {
        assertReadOrRefused(body);
    }

    @Property(tries = 300)
    void aValidNotificationKeepsItsNamesExactly(@ForAll("validName") String namespace, @ForAll("validName") String table,
                                                @ForAll("snapshot") Long snapshotId) {
        String body = "{\"catalog\": \"lake\", \"namespace\": " + quote(namespace) + ", \"table\": " + quote(table)
                + (snapshotId == null ? "" : ", \"snapshotId\": " + snapshotId) + ", \"extra\": [1, {\"x\": null}]}";
        TableChanged change = PARSER.parse(body, NOW, "operator:test");
        assertThat(change.table().catalog()).isEqualTo("lake");
        assertThat(change.table().namespace()).containsExactly(namespace);
        assertThat(change.table().table()).isEqualTo(table);
        assertThat(change.snapshotId()).isEqualTo(snapshotId);
        assertThat(change.source()).isEqualTo(ChangeSource.WEBHOOK);
        assertThat(change.actor()).isEqualTo("operator:test");
    }

    @Property(tries = 50)
    void aBodyOverTheLimitIsRefusedBeforeItIsRead(@ForAll("padding") int extraBytes) {
        String body = "{\"catalog\": \"lake\", \"namespace\": \"n\", \"table\": \"t\", \"pad\": \""
                + "p".repeat(64 * 1024 + extraBytes) + "\"}";
        assertThatThrownBy(() -> PARSER.parse(body, NOW, "operator:test"))
                .isInstanceOf(CryoException.class)
                .hasMessageStartingWith("Cannot accept notification: the body has ")
                .hasMessageEndingWith("bytes, more than cryo.scanner.max-notification-bytes (65536)");
    }

    private static void assertReadOrRefused(String body) {
        try {
            TableChanged change = PARSER.parse(body, NOW, "operator:test");
            assertThat(change.table().catalog()).isEqualTo("lake");
            assertThat(change.source()).isEqualTo(ChangeSource.WEBHOOK);
        } catch (CryoException e) {
            assertThat(e.getMessage()).startsWith("Cannot accept notification: ");
        }
    }

    @Provide
    Arbitrary<String> text() {
        return Arbitraries.oneOf(Arbitraries.strings().ofMaxLength(200),
                Arbitraries.strings().withChars("{}[]\":,\\ 0123456789.-eEtrufalsn").ofMaxLength(120));
    }

    @Provide
    Arbitrary<String> notification() {
        Arbitrary<String> value = Arbitraries.oneOf(name().map(NotificationParserPropertiesTest::quote),
                Arbitraries.of("null", "1", "-1.5", "true", "[]", "{}", "\"\"", "\"   \"", "9223372036854775808"));
        Arbitrary<String> catalog = Arbitraries.oneOf(Arbitraries.just("\"lake\""), value);
        return Combinators.combine(catalog, value, value, Arbitraries.oneOf(value, Arbitraries.just("42")),
                Arbitraries.of(true, false)).as((c, n, t, s, withSnapshot) -> "{\"catalog\": " + c + ", \"namespace\": " + n
                + ", \"table\": " + t + (withSnapshot ? ", \"snapshotId\": " + s : "") + "}");
    }

    @Provide
    Arbitrary<String> name() {
        return Arbitraries.oneOf(
                Arbitraries.of("orders", "x'; DROP TABLE table_state; --", "../../etc/passwd", "a\"b", "a\\\\b", "`x`",
                        "naïve ☃", "%2e%2e%2f", "a b", "\u0000", "\n"),
                Arbitraries.strings().ofMinLength(1).ofMaxLength(300));
    }

    /** Names a table id accepts, hostile ones included: SQL, quotes, traversal-looking text, any script. */
    @Provide
    Arbitrary<String> validName() {
        return Arbitraries.oneOf(
                Arbitraries.of("x'; DROP TABLE table_state; --", "a\"b", "naïve ☃", "%2e%2e%2f", "a b", "..%2F..%2Fetc"
                        .replace(".", "_")),
                Arbitraries.strings().ofMinLength(1).ofMaxLength(255)
                        .filter(name -> !name.isBlank() && !name.matches("(?s).*[.`\\p{Cntrl}].*")));
    }

    @Provide
    Arbitrary<Long> snapshot() {
        return Arbitraries.oneOf(Arbitraries.longs(), Arbitraries.just(null));
    }

    @Provide
    Arbitrary<Integer> padding() {
        return Arbitraries.integers().between(1, 4096);
    }

    private static String quote(String text) {
        StringBuilder json = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            if (c == '"' || c == '\\') {
                json.append('\\').append(c);
            } else if (c < 0x20) {
                json.append(String.format("\\u%04x", (int) c));
            } else {
                json.append(c);
            }
        }
        return json.append('"').toString();
    }
}
