package dev.cryo.planner.security;

import dev.cryo.contracts.Topics;
import dev.cryo.testsupport.RedriveAccess;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/**
 * The planner's only state-changing endpoint is the dead-letter re-drive every service has (its other
 * endpoints read): without credentials 401, with a wrong token 401, as a viewer 403, and nothing is
 * published; reads stay open to anonymous callers and viewers.
 */
@QuarkusTest
class AuthorizationTest {

    @Test
    void theRedriveRefusesAnonymousWrongAndViewerCallersAndPublishesNothing() {
        RedriveAccess.assertOnlyOperatorsRedrive(Topics.deadLetter("planner"));
    }
}
