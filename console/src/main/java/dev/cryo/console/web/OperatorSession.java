package dev.cryo.console.web;

import dev.cryo.console.config.ConsoleConfig;
import dev.cryo.console.domain.SessionSeal;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.NewCookie;

import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The operator's session: the API token sealed into an HttpOnly, SameSite=Strict cookie, and handed to
 * the services as {@code Authorization: Bearer <token>} on every action. The console stores no token.
 */
@ApplicationScoped
public class OperatorSession {

    /** The session cookie's name. */
    public static final String COOKIE = "cryo_console_session";

    /** What a token may look like: it must fit an HTTP header as is. */
    private static final Pattern TOKEN = Pattern.compile("[\\x21-\\x7E]{16,512}");

    private final SessionSeal seal;
    private final ConsoleConfig config;
    private final Clock clock;

    OperatorSession(ConsoleConfig config) {
        this.config = config;
        this.clock = Clock.systemUTC();
        this.seal = config.session().key().map(SessionSeal::withKey).orElseGet(() -> {
            Log.info("No cryo.console.session.key set: operator sessions end when the console restarts");
            return SessionSeal.withRandomKey();
        });
    }

    /** The token of a session cookie, when it is one of this console's and has not expired. */
    public Optional<String> token(String cookieValue) {
        return seal.open(cookieValue, clock.instant());
    }

    /** The {@code Authorization} header value for a session cookie's token. */
    public Optional<String> authorization(String cookieValue) {
        return token(cookieValue).map(token -> "Bearer " + token);
    }

    /** Whether a token can be sent as a bearer token at all (printable ASCII, no spaces, 16 to 512 characters). */
    public static boolean wellFormed(String token) {
        return token != null && TOKEN.matcher(token).matches();
    }

    /** The cookie that opens a session. */
    public NewCookie signIn(String token, boolean secure) {
        Instant expiresAt = clock.instant().plus(config.session().lifetime());
        return cookie(seal.seal(token, expiresAt), (int) config.session().lifetime().getSeconds(), secure);
    }

    /** The cookie that ends a session. */
    public NewCookie signOut(boolean secure) {
        return cookie("", 0, secure);
    }

    private static NewCookie cookie(String value, int maxAgeSeconds, boolean secure) {
        return new NewCookie.Builder(COOKIE)
                .value(value)
                .path("/")
                .maxAge(maxAgeSeconds)
                .httpOnly(true)
                .secure(secure)
                .sameSite(NewCookie.SameSite.STRICT)
                .build();
    }
}
