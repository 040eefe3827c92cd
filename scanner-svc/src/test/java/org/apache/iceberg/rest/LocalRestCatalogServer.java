package org.apache.iceberg.rest;

import java.util.Map;

/**
 * Starts Iceberg's own REST catalog server (the open-api test fixture, on Jetty) in this JVM.
 * It lives in Iceberg's package because the fixture's constructor is package-private.
 */
public final class LocalRestCatalogServer implements AutoCloseable {

    private final RESTCatalogServer server;

    /** @param config backend catalog properties plus {@code rest.port} */
    public LocalRestCatalogServer(Map<String, String> config) throws Exception {
        server = new RESTCatalogServer(new java.util.HashMap<>(config));
        server.start(false);
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }
}
