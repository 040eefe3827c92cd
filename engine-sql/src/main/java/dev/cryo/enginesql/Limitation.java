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
    LEAVES_DELETE_FILES
}
