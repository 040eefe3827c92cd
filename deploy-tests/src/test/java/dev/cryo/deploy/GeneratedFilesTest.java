package dev.cryo.deploy;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The committed generated files equal what their generator makes now. With
 * {@code -Dcryo.deploy.regenerate=true} the test rewrites them first (the command in their header).
 */
class GeneratedFilesTest {

    private final RepositoryLayout repository = RepositoryLayout.locate();

    @Test
    void topicManifestsAreGeneratedFromTheCurrentContracts() throws IOException {
        assertGenerated(repository.topicManifests(), TopicManifests.render());
    }

    @Test
    void kafkaUsersAreGeneratedFromTheCurrentPrincipals() throws IOException {
        assertGenerated(repository.userManifests(), KafkaUserManifests.render());
    }

    private static void assertGenerated(Path file, String expected) throws IOException {
        if (Boolean.getBoolean("cryo.deploy.regenerate")) {
            Files.writeString(file, expected);
        }
        assertThat(Files.readString(file))
                .as("%s is stale: regenerate it with %s", file, TopicManifests.REGENERATE_COMMAND)
                .isEqualTo(expected);
    }

    @Test
    void theGeneratedUsersSaySoAndNameTheCommandThatRegeneratesThem() {
        String header = KafkaUserManifests.render().lines().limit(3).reduce("", (all, line) -> all + line + "\n");

        assertThat(header).startsWith("# GENERATED from contracts' KafkaPrincipals.all()")
                .contains(TopicManifests.REGENERATE_COMMAND);
    }

    @Test
    void theGeneratedFileSaysSoAndNamesTheCommandThatRegeneratesIt() {
        String header = TopicManifests.render().lines().limit(3).reduce("", (all, line) -> all + line + "\n");

        assertThat(header).startsWith("# GENERATED from contracts' Topics.all()")
                .contains(TopicManifests.REGENERATE_COMMAND);
    }
}
