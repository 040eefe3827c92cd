package dev.cryo.console.web;

import dev.cryo.console.client.ExecutorApi.ExecutorJob;
import dev.cryo.console.client.Fetched;
import dev.cryo.console.domain.QueueBoard;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

/**
 * The queue page's content.
 *
 * @param catalog the catalog the page is filtered to (null: every table)
 * @param namespace the namespace the page is filtered to (null: any)
 * @param board what runs, what waits and why, engine slots and load (governor)
 * @param finished the jobs that finished last (executor)
 */
public record QueuePage(String catalog, String namespace, Fetched<QueueBoard> board, Fetched<List<ExecutorJob>> finished,
                        Instant generatedAt) {

    /** The query string of the filter, for the live part. */
    public String queryString() {
        StringBuilder query = new StringBuilder();
        if (catalog != null) {
            query.append("catalog=").append(URLEncoder.encode(catalog, StandardCharsets.UTF_8));
        }
        if (namespace != null) {
            query.append(query.isEmpty() ? "" : "&").append("namespace=")
                    .append(URLEncoder.encode(namespace, StandardCharsets.UTF_8));
        }
        return query.toString();
    }
}
