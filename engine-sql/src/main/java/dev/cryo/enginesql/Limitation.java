package dev.cryo.enginesql;

/** Why an engine cannot run something that Cryo planned: the executor routes it to the next engine. */
public enum Limitation {
    /** The engine has no procedure for the operation (rewrite_position_deletes on Trino). */
    OPERATION_NOT_AVAILABLE,
    /** The engine cannot honour a parameter of the operation (retain_last on Trino's expire_snapshots). */
    PARAMETER_NOT_AVAILABLE,
    /** The engine cannot address the partitions of a transform exactly. */
    TRANSFORM_NOT_ADDRESSABLE,
    /** The engine has no literal for a partition value of this source type. */
    SOURCE_TYPE_NOT_SUPPORTED,
    /** The engine cannot name the table (Trino has one schema level). */
    TABLE_NAME_NOT_SUPPORTED,
    /**
     * The engine's procedure rewrites the data but leaves the delete files the operation exists to
     * remove (Trino 476's optimize with a partition filter keeps equality delete files).
     */
    LEAVES_DELETE_FILES,
    /**
     * The engine refuses the operation on tables of this format version, or cannot read what the
     * version writes (Trino 476 and format v3: its optimize refuses, it cannot read deletion vectors).
     */
    FORMAT_VERSION_NOT_SUPPORTED,
    /**
     * The engine runs the operation but gives rows a new {@code _row_id} or
     * {@code _last_updated_sequence_number}, which a format v3 table must keep (Spark's
     * rewrite_manifests with Iceberg 1.10.1).
     */
    LOSES_ROW_LINEAGE
}
