package dev.cryo.deploy;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Every service has the JVM-mode Dockerfile of Quarkus' conventions, exposing the port it listens on. */
class DockerfilesTest {

    private final ValidationContext context = ValidationContext.ofRepository();

    @Test
    void everyServiceHasAJvmDockerfileForItsQuarkusApp() throws IOException {
        for (String module : context.architecture().services()) {
            Path dockerfile = context.repository().module(module).resolve(ComposeRules.DOCKERFILE);
            assertThat(dockerfile).as(module).isRegularFile();
            String text = Files.readString(dockerfile);
            int port = context.configuration(module).defaultHttpPort();

            assertThat(text).as(module)
                    .containsPattern("(?m)^FROM registry\\.access\\.redhat\\.com/ubi9/openjdk-17:")
                    .contains("COPY --chown=185 target/quarkus-app/lib/ /deployments/lib/")
                    .contains("COPY --chown=185 target/quarkus-app/*.jar /deployments/")
                    .contains("COPY --chown=185 target/quarkus-app/app/ /deployments/app/")
                    .contains("COPY --chown=185 target/quarkus-app/quarkus/ /deployments/quarkus/")
                    .containsPattern("(?m)^EXPOSE " + port + "$")
                    .containsPattern("(?m)^USER 185$")
                    .contains("ENV JAVA_APP_JAR=\"/deployments/quarkus-run.jar\"")
                    .containsPattern("(?m)^ENV JAVA_OPTS_APPEND=\"-XX:\\+ExitOnOutOfMemoryError ")
                    .contains("docker build -f " + module + "/" + ComposeRules.DOCKERFILE + " -t cryo/" + module);
        }
    }
}
