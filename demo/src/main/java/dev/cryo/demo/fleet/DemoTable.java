package dev.cryo.demo.fleet;

import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;

import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * One table of the demo fleet: how it is created, what it holds and the story it tells.
 *
 * @param name the table name inside the demo namespace
 * @param story one line for people: the state a real fleet has tables in
 * @param schema its schema
 * @param spec its first partition spec
 * @param formatVersion Iceberg format version (2, or 3 for deletion vectors)
 * @param properties table properties
 * @param recipe writes the table's history
 * @param liveWriter the writer that keeps changing it after creation (empty: nobody writes it)
 */
public record DemoTable(String name, String story, Schema schema, PartitionSpec spec, int formatVersion,
                        Map<String, String> properties, Recipe recipe, Optional<LiveWriterKind> liveWriter) {

    public DemoTable {
        requireNonNull(name, "name is null");
        requireNonNull(story, "story is null");
        requireNonNull(schema, "schema is null");
        requireNonNull(spec, "spec is null");
        if (formatVersion < 2 || formatVersion > 3) {
            throw new IllegalArgumentException("Cannot define demo table " + name + ": format version must be 2 or 3");
        }
        properties = Map.copyOf(properties);
        requireNonNull(recipe, "recipe is null");
        requireNonNull(liveWriter, "liveWriter is null");
    }

    /** The live writers a demo table can have. */
    public enum LiveWriterKind {
        /** Small appends every few seconds into the current hour, as a streaming job does. */
        STREAMING_APPENDS,
        /** Upserts (equality deletes plus new row versions) and row deletes by position, as CDC does. */
        CDC_UPSERTS,
        /** A batch of a few thousand rows every minute. */
        BATCH_APPENDS
    }
}
