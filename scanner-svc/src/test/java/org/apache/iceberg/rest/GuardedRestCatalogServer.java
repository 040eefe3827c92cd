package org.apache.iceberg.rest;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServlet;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.servlet.FilterHolder;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;

import java.io.Closeable;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;

/**
 * Iceberg's own REST catalog (the servlet and server-side adapter of its open-api test fixture)
 * behind an authorization gate, with a token endpoint at {@code /auth/token} on the same Jetty
 * server: a REST catalog that requires a bearer token, as production ones do. With
 * {@code include-credentials=true} in the backend properties, every loadTable answer carries the
 * backend's {@code s3.*} keys in its {@code config} (vended credentials). It lives in Iceberg's
 * package because the fixture's adapter is package-private.
 */
public final class GuardedRestCatalogServer implements AutoCloseable {

    public static final String TOKEN_PATH = "/auth/token";

    private final Catalog backend;
    private final Server server;

    /**
     * @param backendProperties the backing catalog's properties ({@code catalog-impl}, {@code uri}, …; its name
     *                          is {@code catalog.name})
     * @param tokenEndpoint     served at {@link #TOKEN_PATH}, ungated
     * @param gate              in front of every catalog route
     */
    public GuardedRestCatalogServer(Map<String, String> backendProperties, HttpServlet tokenEndpoint, Filter gate)
            throws Exception {
        Map<String, String> properties = new HashMap<>(backendProperties);
        backend = CatalogUtil.buildIcebergCatalog(properties.getOrDefault("catalog.name", "rest_backend"), properties,
                new Configuration());
        RESTCatalogAdapter adapter = new RESTServerCatalogAdapter(new RESTCatalogServer.CatalogContext(backend, properties));
        ServletContextHandler context = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
        context.addServlet(new ServletHolder(tokenEndpoint), TOKEN_PATH);
        context.addServlet(new ServletHolder(new RESTCatalogServlet(adapter)), "/v1/*");
        context.addFilter(new FilterHolder(gate), "/v1/*", EnumSet.of(DispatcherType.REQUEST));
        server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(context);
        server.start();
    }

    /** The catalog's {@code uri}. */
    public String uri() {
        return "http://127.0.0.1:" + ((ServerConnector) server.getConnectors()[0]).getLocalPort();
    }

    /** The {@code oauth2-server-uri}. */
    public String tokenUri() {
        return uri() + TOKEN_PATH;
    }

    @Override
    public void close() throws Exception {
        server.stop();
        if (backend instanceof Closeable closeable) {
            closeable.close();
        }
    }
}
