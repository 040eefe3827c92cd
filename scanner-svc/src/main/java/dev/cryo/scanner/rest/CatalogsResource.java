package dev.cryo.scanner.rest;

import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.scanner.persistence.WatcherStore;
import dev.cryo.scanner.watch.CatalogWatcher;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import java.util.List;

/** The configured catalogs and what the watcher last saw of each. */
@Path("/api/v1/catalogs")
@Produces(MediaType.APPLICATION_JSON)
public class CatalogsResource {

    private final CatalogRegistry catalogs;
    private final WatcherStore store;
    private final CatalogWatcher watcher;

    CatalogsResource(CatalogRegistry catalogs, WatcherStore store, CatalogWatcher watcher) {
        this.catalogs = catalogs;
        this.store = store;
        this.watcher = watcher;
    }

    @GET
    public List<CatalogView> list() {
        return catalogs.names().stream().map(name -> store.status(name)
                .map(status -> new CatalogView(name, watcher.method(name), status.reachable(), status.tables(),
                        status.lastPollAt(), status.lastError(), status.lastErrorAt()))
                .orElseGet(() -> new CatalogView(name, watcher.method(name), false, null, null, null, null)))
                .toList();
    }
}
