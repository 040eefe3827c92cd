package dev.cryo.bench.harness;

import dev.cryo.bench.domain.QuerySample;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The dashboard query mix of PROTOCOL.md (scenario 2's Trino variant, fixed in scenario 4's
 * clarification): five queries, one at a time in this order, every row read.
 */
public final class QueryMix {

    /** The mix by name; {@code %s} is the table, {@code "namespace"."table"} in the connection's catalog. */
    public static final Map<String, String> QUERIES = queries();

    /** The name of a table of the connection's catalog as the mix's {@code %s}. */
    public static String table(String namespace, String table) {
        return "\"" + namespace + "\".\"" + table + "\"";
    }

    /** {@code rounds} rounds of the mix on one table, over one connection; failures are recorded, not thrown. */
    public static List<QuerySample> rounds(TrinoClient client, String table, int rounds) {
        List<QuerySample> samples = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            QUERIES.forEach((name, sql) -> samples.add(client.timed(name, sql.formatted(table))));
        }
        return samples;
    }

    /** The mix as text for a report's notes, the table written {@code t}. */
    public static String describe() {
        return String.join("; ", QUERIES.values()).replace("%s", "t");
    }

    private static Map<String, String> queries() {
        Map<String, String> mix = new LinkedHashMap<>();
        mix.put("count", "SELECT count(*) FROM %s");
        mix.put("count of one day", "SELECT count(*) FROM %s WHERE event_ts >= TIMESTAMP '2026-01-01 00:00:00 UTC' "
                + "AND event_ts < TIMESTAMP '2026-01-02 00:00:00 UTC'");
        mix.put("group by category", "SELECT category, count(*), sum(amount) FROM %s GROUP BY category");
        mix.put("top 10 amount", "SELECT id, amount FROM %s ORDER BY amount DESC LIMIT 10");
        mix.put("count distinct id", "SELECT count(DISTINCT id) FROM %s");
        return Collections.unmodifiableMap(mix);
    }

    private QueryMix() {
    }
}
