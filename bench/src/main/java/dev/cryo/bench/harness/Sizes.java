package dev.cryo.bench.harness;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/** The sizes of PROTOCOL.md for one mode, with the caller's overrides (--set key=value). */
public final class Sizes {

    private static final Map<String, String[]> DEFAULTS = new TreeMap<>();

    static {
        // key -> {quick, full}, as PROTOCOL.md's tables
        DEFAULTS.put("target-file-size-bytes", new String[]{"1048576", "1048576"});
        DEFAULTS.put("fleet.per-class", new String[]{"1", "2"});
        DEFAULTS.put("fleet.partitions", new String[]{"3", "4"});
        DEFAULTS.put("fleet.cycles", new String[]{"2", "4"});
        DEFAULTS.put("fleet.small-per-cycle", new String[]{"10", "12"});
        DEFAULTS.put("fleet.bad-small-files", new String[]{"10", "20"});
        DEFAULTS.put("fleet.updated-rows", new String[]{"20", "50"});
        DEFAULTS.put("fleet.large-file-rows", new String[]{"9000", "9000"});
        DEFAULTS.put("fleet.settle-timeout", new String[]{"PT3M", "PT5M"});
        DEFAULTS.put("frag.files", new String[]{"120", "5000"});
        DEFAULTS.put("frag.files-per-commit", new String[]{"10", "20"});
        DEFAULTS.put("frag.partitions", new String[]{"2", "4"});
        DEFAULTS.put("frag.rows-per-file", new String[]{"40", "40"});
        DEFAULTS.put("frag.settle-timeout", new String[]{"PT3M", "PT20M"});
        // untimed rounds before trial 1 (protocol 7): every contender's JVM has run its maintenance once, as a
        // long-running executor has, before the first measured trial
        DEFAULTS.put("frag.warm-up-rounds", new String[]{"1", "1"});
        // protocol 10: each warm-up copy is maintained this many times (rolled back between), because the executor's C2
        // compiler still compiled 1.7 CPU-s in its fourth 5 000-file job (bench/results/ANALYSES.md)
        DEFAULTS.put("frag.warm-up-jobs", new String[]{"2", "8"});
        // scenario 2's query mix on Trino: runs of each query per copy, before and after (PROTOCOL.md: 5; quick 3, a median still)
        DEFAULTS.put("frag.query-runs", new String[]{"3", "5"});
        DEFAULTS.put("impact.idle-rounds", new String[]{"2", "5"});
        // scenario 3 at full (protocol 8): the seed's 36 MERGEs in compressed time (200 s -> 20 s, 2 h -> 12 min), one
        // 32 MiB file per day; protocol 9: an operator who wants every MERGE's deletes applied sets the critical limit
        // at 1 delete file (a warning alone leaves the table at grade A, which gets no plan)
        DEFAULTS.put("cdc.interval", new String[]{"PT2S", "PT20S"});
        DEFAULTS.put("cdc.duration", new String[]{"PT30S", "PT12M"});
        DEFAULTS.put("cdc.dag-interval", new String[]{"PT15S", "PT90S"});
        DEFAULTS.put("cdc.partitions", new String[]{"4", "32"});
        DEFAULTS.put("cdc.table-bytes", new String[]{"4194304", "1073741824"});
        DEFAULTS.put("cdc.file-bytes", new String[]{"1048576", "33554432"});
        DEFAULTS.put("cdc.target-file-size-bytes", new String[]{"1048576", "33554432"});
        DEFAULTS.put("cdc.delete-warning", new String[]{"4", "1"});
        DEFAULTS.put("cdc.delete-critical", new String[]{"12", "1"});
        DEFAULTS.put("cdc.min-jobs", new String[]{"1", "20"});
        DEFAULTS.put("cdc.updates", new String[]{"20", "50"});
        DEFAULTS.put("cdc.inserts", new String[]{"20", "50"});
        DEFAULTS.put("cdc.sample-interval", new String[]{"PT1S", "PT5S"});
        DEFAULTS.put("react.tables", new String[]{"2", "10"});
        DEFAULTS.put("scale.tables", new String[]{"20", "10000"});
        DEFAULTS.put("scale.rate", new String[]{"10", "100"});
        DEFAULTS.put("scale.duration", new String[]{"PT5S", "PT30S"});
        DEFAULTS.put("scale.settle-timeout", new String[]{"PT3M", "PT15M"});
        DEFAULTS.put("scan.files", new String[]{"2000", "100000"});
        DEFAULTS.put("scan.partitions", new String[]{"50", "1000"});
        DEFAULTS.put("scan.commits", new String[]{"20", "200"});
        // scenario 8 (issue 7): full is 4000 files of about 540 KiB, about 2.06 GiB of Parquet (1 700 rows per file gave 2 046 MiB); quick is tiny for CI
        DEFAULTS.put("engines.files", new String[]{"40", "4000"});
        DEFAULTS.put("engines.partitions", new String[]{"2", "4"});
        DEFAULTS.put("engines.rows-per-file", new String[]{"100", "1760"});
        DEFAULTS.put("engines.payload-chars", new String[]{"400", "400"});
        DEFAULTS.put("engines.files-per-commit", new String[]{"20", "400"});
        DEFAULTS.put("engines.target-file-size-bytes", new String[]{"134217728", "134217728"});
        DEFAULTS.put("engines.trials", new String[]{"1", "3"});
        DEFAULTS.put("engines.timeout", new String[]{"PT10M", "PT2H"});
    }

    /**
     * What PROTOCOL.md writes for T: 8 MiB. The harness's default is 1 MiB in both modes, because scenario 1's "large"
     * files (fleet.large-file-rows = 9 000 rows, about 770 KiB) must be at least 25 % of T to be healthy.
     */
    public static final long PROTOCOL_TARGET_FILE_SIZE_BYTES = 8L * 1024 * 1024;

    /** The harness's value of every size for a mode, without overrides (PROTOCOL.md's tables, plus harness keys). */
    public static Map<String, String> defaults(boolean full) {
        Map<String, String> values = new TreeMap<>();
        DEFAULTS.forEach((key, pair) -> values.put(key, pair[full ? 1 : 0]));
        return values;
    }

    private final Map<String, String> values;

    public Sizes(boolean full, Map<String, String> overrides) {
        requireNonNull(overrides, "overrides is null");
        Map<String, String> values = new TreeMap<>();
        DEFAULTS.forEach((key, pair) -> values.put(key, pair[full ? 1 : 0]));
        for (Map.Entry<String, String> override : overrides.entrySet()) {
            if (!DEFAULTS.containsKey(override.getKey())) {
                throw new IllegalArgumentException("Cannot set " + override.getKey() + ": the sizes are " + DEFAULTS.keySet());
            }
            values.put(override.getKey(), override.getValue());
        }
        this.values = values;
    }

    public int integer(String key) {
        return Integer.parseInt(text(key));
    }

    public long longValue(String key) {
        return Long.parseLong(text(key));
    }

    public Duration duration(String key) {
        return Duration.parse(text(key));
    }

    public String text(String key) {
        String value = values.get(key);
        if (value == null) {
            throw new IllegalArgumentException("Cannot find size " + key);
        }
        return value;
    }

    /** The sizes whose key starts with the prefix (for a scenario's report). */
    public Map<String, String> withPrefix(String prefix) {
        Map<String, String> selected = new TreeMap<>();
        values.forEach((key, value) -> {
            if (key.startsWith(prefix) || key.equals("target-file-size-bytes")) {
                selected.put(key, value);
            }
        });
        return selected;
    }
}
