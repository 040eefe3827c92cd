package dev.cryo.scanner.watch;

import dev.cryo.contracts.TableId;

import java.util.Map;

/** Where the watcher reads every table's current metadata pointer of one catalog, as cheaply as the catalog allows. */
public interface PointerSource {

    /** The current metadata file of every table of the catalog. */
    Map<TableId, String> pointers();

    /** How this source reads the pointers, for logs and the catalogs endpoint. */
    String method();
}
