package dev.cryo.testsupport;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.lang.annotation.Annotation;
import java.util.List;
import java.util.Set;

/**
 * Registered automatically (JUnit extension auto-detection, switched on in the parent POM's
 * Surefire configuration): before a test class that needs Kafka or PostgreSQL starts, checks
 * that they accept connections, so a missing broker fails in a second with a clear message
 * instead of a Quarkus start-up timeout.
 */
public class InfrastructureCheck implements BeforeAllCallback {

    private static final Set<String> QUARKUS_TESTS = Set.of(
            "io.quarkus.test.junit.QuarkusTest", "io.quarkus.test.junit.QuarkusIntegrationTest");

    @Override
    public void beforeAll(ExtensionContext context) {
        Class<?> testClass = context.getRequiredTestClass();
        NeedsInfrastructure needs = findNeeds(testClass);
        if (needs != null) {
            Infrastructure.requireReachable(List.of(needs.value()));
        } else if (isQuarkusTest(testClass)) {
            Infrastructure.requireKafkaAndPostgresql();
        }
    }

    private static NeedsInfrastructure findNeeds(Class<?> testClass) {
        for (Class<?> type = testClass; type != null; type = type.getEnclosingClass()) {
            NeedsInfrastructure needs = type.getAnnotation(NeedsInfrastructure.class);
            if (needs != null) {
                return needs;
            }
        }
        return null;
    }

    private static boolean isQuarkusTest(Class<?> testClass) {
        for (Class<?> type = testClass; type != null; type = type.getSuperclass()) {
            for (Annotation annotation : type.getAnnotations()) {
                if (QUARKUS_TESTS.contains(annotation.annotationType().getName())) {
                    return true;
                }
            }
        }
        return false;
    }
}
