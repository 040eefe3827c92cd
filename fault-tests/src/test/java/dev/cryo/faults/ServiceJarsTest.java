package dev.cryo.faults;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The suite's fail-fast check, in the default build (no stack needed). */
class ServiceJarsTest {

    @TempDir
    Path checkout;

    @Test
    void aMissingServiceJarFailsWithThePackageCommand() throws IOException {
        for (String module : ServiceJars.MODULES) {
            if (!module.equals("governor-svc")) {
                jar(module);
            }
        }
        assertThatThrownBy(() -> ServiceJars.requirePackaged(checkout))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Cannot run the fault-injection suite: governor-svc/target/quarkus-app/quarkus-run.jar is"
                        + " missing. Package the services first: ./mvnw -B -o -q -pl scanner-svc,scorer-svc,"
                        + "planner-svc,governor-svc,executor-svc,audit-svc -am package -DskipTests");
    }

    @Test
    void everyServicePackagedPasses() throws IOException {
        for (String module : ServiceJars.MODULES) {
            jar(module);
        }
        assertThatCode(() -> ServiceJars.requirePackaged(checkout)).doesNotThrowAnyException();
    }

    private void jar(String module) throws IOException {
        Path jar = checkout.resolve(module).resolve("target/quarkus-app/quarkus-run.jar");
        Files.createDirectories(jar.getParent());
        Files.write(jar, new byte[]{0});
    }
}
