package dev.cryo.console.web;

import dev.cryo.console.config.ConsoleConfig;
import dev.cryo.console.domain.Notice;
import jakarta.enterprise.context.ApplicationScoped;

/** The frame of each page: title, navigation, session state and the notice of the last action. */
@ApplicationScoped
public class Layouts {

    private final OperatorSession session;
    private final ConsoleConfig config;

    Layouts(OperatorSession session, ConsoleConfig config) {
        this.session = session;
        this.config = config;
    }

    public Layout of(String title, String section, String sessionCookie, String notice, String reference) {
        return new Layout(title, section, session.token(sessionCookie).isPresent(), config.refreshInterval().toMillis(),
                Notice.fromId(notice).map(found -> found.text(reference)).orElse(null), null);
    }
}
