package dev.cryo.planner.domain;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * Packs ranked partitions into chunks, in rank order, so the worst partitions are committed
 * first: a chunk is closed when the next partition would take it over the byte budget or the
 * partition cap. A partition whose input alone exceeds the budget runs alone in its own chunk.
 * Next-fit keeps the ranking (first-fit would pack a little tighter but reorder the work).
 */
final class ChunkPacker {

    static <T> List<List<T>> pack(List<T> ranked, ToLongFunction<T> inputBytes, long budgetBytes, int partitionsPerChunk) {
        if (budgetBytes < 1 || partitionsPerChunk < 1) {
            throw new IllegalArgumentException("Cannot pack chunks: budget " + budgetBytes + " bytes and "
                    + partitionsPerChunk + " partitions per chunk must be positive");
        }
        List<List<T>> chunks = new ArrayList<>();
        List<T> current = new ArrayList<>();
        long currentBytes = 0;
        for (T partition : ranked) {
            long bytes = inputBytes.applyAsLong(partition);
            if (bytes > budgetBytes) {
                if (!current.isEmpty()) {
                    chunks.add(List.copyOf(current));
                    current.clear();
                    currentBytes = 0;
                }
                chunks.add(List.of(partition));
                continue;
            }
            if (!current.isEmpty() && (currentBytes + bytes > budgetBytes || current.size() >= partitionsPerChunk)) {
                chunks.add(List.copyOf(current));
                current.clear();
                currentBytes = 0;
            }
            current.add(partition);
            currentBytes += bytes;
        }
        if (!current.isEmpty()) {
            chunks.add(List.copyOf(current));
        }
        return List.copyOf(chunks);
    }

    private ChunkPacker() {
    }
}
