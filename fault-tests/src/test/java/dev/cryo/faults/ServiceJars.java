package dev.cryo.faults;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The packaged services the suite runs. The suite starts them as processes from
 * {@code <module>/target/quarkus-app} (through {@code infra/lib/services.sh}) and never builds
 * them itself: a build in the middle of a timed fault scenario would measure the build.
 */
final class ServiceJars {

    static final List<String> MODULES = List.of("scanner-svc", "scorer-svc", "planner-svc", "governor-svc",
            "executor-svc", "audit-svc");

    /** The command that packages them, quoted in the failure message. */
    static final String PACKAGE_COMMAND = "./mvnw -B -o -q -pl " + String.join(",", MODULES)
            + " -am package -DskipTests";

    /** Fails with the package command when a service's quarkus-app jar is missing. */
    static void requirePackaged(Path checkout) {
        List<String> missing = MODULES.stream()
                .map(module -> checkout.resolve(module).resolve("target/quarkus-app/quarkus-run.jar"))
                .filter(jar -> !Files.isRegularFile(jar))
                .map(jar -> checkout.relativize(jar).toString())
                .toList();
        if (!missing.isEmpty()) {
            throw new IllegalStateException("Cannot run the fault-injection suite: " + String.join(", ", missing)
                    + (missing.size() == 1 ? " is" : " are") + " missing. Package the services first: "
                    + PACKAGE_COMMAND);
        }
    }

    private ServiceJars() {
    }
}
