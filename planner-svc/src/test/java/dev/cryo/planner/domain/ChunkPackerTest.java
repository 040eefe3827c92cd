package dev.cryo.planner.domain;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Partitions are their input bytes here: packing only looks at those. */
class ChunkPackerTest {

    @Test
    void partitionsArePackedInRankOrderUnderTheBudget() {
        List<List<Long>> chunks = ChunkPacker.pack(List.of(6L, 4L, 3L, 3L, 5L, 1L), Long::longValue, 10, 64);

        assertThat(chunks).containsExactly(List.of(6L, 4L), List.of(3L, 3L), List.of(5L, 1L));
    }

    @Test
    void aPartitionExactlyAtTheBudgetStillFits() {
        assertThat(ChunkPacker.pack(List.of(10L, 4L, 6L), Long::longValue, 10, 64))
                .containsExactly(List.of(10L), List.of(4L, 6L));
    }

    @Test
    void aPartitionOverTheBudgetRunsAloneAndTheChunkBeforeItIsClosed() {
        List<List<Long>> chunks = ChunkPacker.pack(List.of(2L, 3L, 25L, 4L, 11L, 1L), Long::longValue, 10, 64);

        assertThat(chunks).containsExactly(List.of(2L, 3L), List.of(25L), List.of(4L), List.of(11L), List.of(1L));
    }

    @Test
    void noChunkHoldsMorePartitionsThanTheCap() {
        List<Long> hundredSmall = LongStream.rangeClosed(1, 100).map(i -> 1).boxed().toList();

        List<List<Long>> chunks = ChunkPacker.pack(hundredSmall, Long::longValue, 1_000_000, 64);

        assertThat(chunks).extracting(List::size).containsExactly(64, 36);
        assertThat(ChunkPacker.pack(hundredSmall, Long::longValue, 1_000_000, 1)).hasSize(100);
    }

    @Test
    void partitionsWithoutInputBytesAreBoundOnlyByTheCap() {
        assertThat(ChunkPacker.pack(List.of(0L, 0L, 0L, 0L, 0L), Long::longValue, 1, 2))
                .extracting(List::size).containsExactly(2, 2, 1);
    }

    @Test
    void nothingToPackGivesNoChunk() {
        assertThat(ChunkPacker.pack(List.<Long>of(), Long::longValue, 10, 64)).isEmpty();
    }

    @Test
    void aBudgetOrCapBelowOneIsRejected() {
        assertThatThrownBy(() -> ChunkPacker.pack(List.of(1L), Long::longValue, 0, 64))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot pack chunks: budget 0 bytes and 64 partitions per chunk must be positive");
    }
}
