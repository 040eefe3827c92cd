package dev.cryo.executor.iceberg;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class WriteMemoryTest {

    private static final long MIB = 1L << 20;

    @Test
    void aReservationWaitsUntilTheHeapItNeedsIsGivenBack() throws Exception {
        WriteMemory memory = new WriteMemory(100 * MIB);
        WriteMemory.Lease first = memory.reserve(60 * MIB);
        assertThat(memory.availableMebibytes()).isEqualTo(40);

        CompletableFuture<WriteMemory.Lease> second = CompletableFuture.supplyAsync(() -> memory.reserve(60 * MIB));
        // it waits: 40 MiB are free, it needs 60 (it cannot complete before the first lease closes)
        Thread.sleep(300);
        assertThat(second).as("a reservation beyond the free heap went through").isNotDone();
        first.close();

        WriteMemory.Lease granted = second.get(10, TimeUnit.SECONDS);
        assertThat(memory.availableMebibytes()).isEqualTo(40);
        granted.close();
        assertThat(memory.availableMebibytes()).isEqualTo(100);
    }

    @Test
    void aReservationLargerThanTheBudgetTakesTheWholeBudgetSoOneWriterAlwaysProceeds() {
        WriteMemory memory = new WriteMemory(100 * MIB);

        try (WriteMemory.Lease huge = memory.reserve(5_000 * MIB)) {
            assertThat(memory.availableMebibytes()).isZero();
        }
        await().atMost(Duration.ofSeconds(1)).until(() -> memory.availableMebibytes() == 100);
    }

    @Test
    void theBudgetIsAShareOfTheMaximumHeap() {
        WriteMemory memory = WriteMemory.shareOfHeap();

        long expected = (long) (Runtime.getRuntime().maxMemory() * WriteMemory.HEAP_SHARE) / MIB;
        assertThat((long) memory.totalMebibytes()).isEqualTo(Math.min(expected, 1 << 24));
    }
}
