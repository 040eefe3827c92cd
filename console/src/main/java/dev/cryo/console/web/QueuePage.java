package dev.cryo.console.web;

import dev.cryo.console.client.ExecutorApi.ExecutorJob;
import dev.cryo.console.client.Fetched;
import dev.cryo.console.domain.QueueBoard;

import java.time.Instant;
import java.util.List;

/**
 * The queue page's content.
 *
 * @param board what runs, what waits and why, engine slots and load (governor)
 * @param finished the jobs that finished last (executor)
 */
public record QueuePage(Fetched<QueueBoard> board, Fetched<List<ExecutorJob>> finished, Instant generatedAt) {
}
