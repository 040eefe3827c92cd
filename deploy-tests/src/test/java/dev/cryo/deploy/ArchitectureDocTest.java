package dev.cryo.deploy;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/ARCHITECTURE.md names the services and topics the code has: every Quarkus application of the
 * root pom, and every topic of contracts' {@code Topics.all()}, no more and no fewer.
 */
class ArchitectureDocTest {

    private final RepositoryLayout repository = RepositoryLayout.locate();

    @Test
    void theArchitectureDocNamesExactlyTheServicesAndTopicsOfTheCode() {
        Architecture doc = Architecture.read(repository);
        Architecture code = Architecture.fromCode(repository);

        assertThat(doc.services()).as("services of docs/ARCHITECTURE.md").containsExactlyInAnyOrderElementsOf(code.services());
        assertThat(doc.topics()).as("topics of docs/ARCHITECTURE.md").containsExactlyInAnyOrderElementsOf(code.topics());
    }
}
