package dev.cryo.testsupport;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a test class that talks to the real Kafka and/or PostgreSQL. {@link InfrastructureCheck}
 * fails it at once, with the command that starts them, when they are not running.
 * {@code @QuarkusTest} classes are checked for both without this annotation.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Inherited
public @interface NeedsInfrastructure {
    Infrastructure.Component[] value() default {Infrastructure.Component.KAFKA, Infrastructure.Component.POSTGRESQL};
}
