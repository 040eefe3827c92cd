package dev.cryo.executor.config;

import dev.cryo.contracts.Engine;
import dev.cryo.executor.app.PolicyRouting;
import dev.cryo.executor.engine.MaintenanceEngine;
import io.quarkus.logging.Log;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * The engines this executor runs (native always; Trino and Spark when configured), the routing
 * between them, and the clients to close when the executor stops.
 */
public final class ConfiguredEngines {

    private final Map<Engine, MaintenanceEngine> engines;
    private final PolicyRouting routing;
    private final List<AutoCloseable> clients;

    ConfiguredEngines(Map<Engine, MaintenanceEngine> engines, PolicyRouting routing, List<AutoCloseable> clients) {
        this.engines = new EnumMap<>(requireNonNull(engines, "engines is null"));
        this.routing = requireNonNull(routing, "routing is null");
        this.clients = List.copyOf(requireNonNull(clients, "clients is null"));
    }

    /** The engines by kind, in the order native, trino, spark. */
    public Map<Engine, MaintenanceEngine> engines() {
        return new EnumMap<>(engines);
    }

    public PolicyRouting routing() {
        return routing;
    }

    void close() {
        for (AutoCloseable client : clients) {
            try {
                client.close();
            } catch (Exception e) {
                // Closing one client must not keep the others open; the failure is logged, not hidden.
                Log.warnf(e, "Cannot close engine client %s", client);
            }
        }
    }
}
