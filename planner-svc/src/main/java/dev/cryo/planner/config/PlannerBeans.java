package dev.cryo.planner.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.cryo.contracts.OrphanAgeFloors;
import dev.cryo.planner.PlannerErrorCode;
import dev.cryo.planner.domain.TablePolicies;
import dev.cryo.platform.config.OrphansConfig;
import dev.cryo.platform.error.CryoException;
import io.quarkus.jackson.ObjectMapperCustomizer;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** The table policies, validated when the service starts, and the REST JSON settings. */
@ApplicationScoped
public class PlannerBeans {

    @Produces
    @Startup
    @ApplicationScoped
    TablePolicies tablePolicies(PlannerConfig config, OrphansConfig orphans) {
        try {
            return new TablePolicies(config.basePolicy(), config.overridesByPattern(), orphans.allowUnsafeFloor()
                    ? OrphanAgeFloors.UnsafeFloors.ALLOWED : OrphanAgeFloors.UnsafeFloors.REFUSED);
        } catch (IllegalArgumentException e) {
            throw new CryoException(PlannerErrorCode.INVALID_CONFIGURATION, "Cannot start the planner: " + e.getMessage(), e);
        }
    }

    /** REST answers embed events: write them as the event JSON does (ISO durations, no nulls). */
    @Singleton
    static class EventLikeJson implements ObjectMapperCustomizer {
        @Override
        public void customize(ObjectMapper mapper) {
            mapper.disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS);
            mapper.disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
            mapper.setSerializationInclusion(JsonInclude.Include.NON_NULL);
        }
    }
}
