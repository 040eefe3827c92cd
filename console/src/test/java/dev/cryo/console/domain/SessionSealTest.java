package dev.cryo.console.domain;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SessionSealTest {

    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
    private static final String TOKEN = "test-operator-token-0001";

    @Test
    void aSealedTokenOpensUntilItExpires() {
        SessionSeal seal = SessionSeal.withRandomKey();
        String cookie = seal.seal(TOKEN, NOW.plusSeconds(3600));

        assertThat(cookie).doesNotContain(TOKEN).matches("[A-Za-z0-9_-]+");
        assertThat(seal.open(cookie, NOW)).contains(TOKEN);
        assertThat(seal.open(cookie, NOW.plusSeconds(3599))).contains(TOKEN);
        assertThat(seal.open(cookie, NOW.plusSeconds(3600))).isEmpty();
    }

    @Test
    void anAlteredForeignOrMalformedValueOpensNothing() {
        SessionSeal seal = SessionSeal.withRandomKey();
        String cookie = seal.seal(TOKEN, NOW.plusSeconds(3600));
        byte[] bytes = Base64.getUrlDecoder().decode(cookie);
        bytes[bytes.length - 1] ^= 1;

        assertThat(seal.open(Base64.getUrlEncoder().withoutPadding().encodeToString(bytes), NOW)).isEmpty();
        assertThat(SessionSeal.withRandomKey().open(cookie, NOW)).isEmpty();
        assertThat(seal.open("not base64 !", NOW)).isEmpty();
        assertThat(seal.open("", NOW)).isEmpty();
        assertThat(seal.open(null, NOW)).isEmpty();
        assertThat(seal.open("AAAA", NOW)).isEmpty();
    }

    @Test
    void twoConsolesWithTheSameConfiguredKeyShareSessions() {
        String key = Base64.getEncoder().encodeToString(new byte[SessionSeal.KEY_BYTES]);
        String cookie = SessionSeal.withKey(key).seal(TOKEN, NOW.plusSeconds(60));

        assertThat(SessionSeal.withKey(key).open(cookie, NOW)).contains(TOKEN);
    }

    @Test
    void aKeyOfTheWrongSizeOrNotBase64IsRefused() {
        assertThatThrownBy(() -> new SessionSeal(new byte[16]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot seal sessions: the key has 16 bytes, it needs 32 (set cryo.console.session.key "
                        + "to the base64 of 32 random bytes)");
        assertThatThrownBy(() -> SessionSeal.withKey("***"))
                .hasMessage("Cannot seal sessions: cryo.console.session.key is not base64");
    }
}
