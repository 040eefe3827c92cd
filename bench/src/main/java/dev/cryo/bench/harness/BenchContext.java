package dev.cryo.bench.harness;

import static java.util.Objects.requireNonNull;

/**
 * What a scenario runs with.
 *
 * @param environment where Cryo runs
 * @param lakehouse the local catalog
 * @param api the services' REST APIs
 * @param tap Cryo's events about the benchmark's tables
 * @param sizes the sizes of this mode
 * @param trials trials per scenario
 * @param runId a short id of this run, part of every namespace
 * @param trinoAvailable whether a Trino server answers (scenarios 2-4 on Trino)
 */
public record BenchContext(Environment environment, Lakehouse lakehouse, CryoApi api, EventTap tap, Sizes sizes,
                           int trials, String runId, boolean trinoAvailable) {

    public BenchContext {
        requireNonNull(environment, "environment is null");
        requireNonNull(lakehouse, "lakehouse is null");
        requireNonNull(api, "api is null");
        requireNonNull(tap, "tap is null");
        requireNonNull(sizes, "sizes is null");
        requireNonNull(runId, "runId is null");
    }

    /** The namespace of one scenario, trial and contender: {@code b<run>_s<scenario>_t<trial>_<contender>}. */
    public String namespace(int scenario, int trial, String contender) {
        return "b" + runId + "_s" + scenario + "_t" + trial + "_" + contender;
    }

    /**
     * How the id of every table of one scenario and trial starts, whatever the contender:
     * {@code <catalog>.b<run>_s<scenario>_t<trial>_}.
     */
    public String tablePrefix(int scenario, int trial) {
        return lakehouse.catalogName() + "." + namespace(scenario, trial, "");
    }

    /**
     * The namespace of a contender's copy in an untimed warm-up round: outside every trial's {@link #tablePrefix}, so
     * that no trial counts its jobs.
     */
    public String warmUpNamespace(int scenario, int round, String contender) {
        return "b" + runId + "_s" + scenario + "_w" + round + "_" + contender;
    }

    /** The governor pattern of every table of a namespace. */
    public String pattern(String namespace) {
        return lakehouse.catalogName() + "." + namespace + ".*";
    }

    /** The seed of PROTOCOL.md: 20260101 + 1000·trial + table index. */
    public static long seed(int trial, int table) {
        return 20260101L + 1000L * trial + table;
    }
}
