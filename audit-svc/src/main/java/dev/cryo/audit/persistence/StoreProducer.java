package dev.cryo.audit.persistence;

import dev.cryo.audit.config.AuditConfig;
import dev.cryo.platform.config.ServiceConfig;
import io.agroal.api.AgroalDataSource;
import io.quarkus.logging.Log;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import java.time.Clock;

/** The live audit store and its reads: the service's own schema, written as the service's (append-only) database role. */
@ApplicationScoped
public class StoreProducer {

    @Produces
    @Singleton
    AuditStore liveStore(AgroalDataSource dataSource, ServiceConfig service, Clock clock) {
        return new AuditStore(dataSource, service.schema(), clock);
    }

    @Produces
    @Singleton
    AuditQueries liveQueries(AgroalDataSource dataSource, ServiceConfig service) {
        return new AuditQueries(dataSource, service.schema());
    }

    void createPartitionsAhead(@Observes StartupEvent start, AuditStore store, AuditConfig config, Clock clock) {
        store.ensurePartitions(clock.instant(), config.partitions().monthsAhead());
        Log.infof("audit log in schema %s: partitions ready for this month and %d ahead", store.schema(),
                config.partitions().monthsAhead());
    }
}
