package dev.cryo.demo.fleet;

import org.apache.iceberg.Table;

/** Writes a freshly created demo table into the state it shows. */
@FunctionalInterface
public interface Recipe {

    /**
     * @param table the empty table, just created
     * @param data writes its rows, deletes and history
     */
    void fill(Table table, TableData data);
}
