package dev.cryo.scanner.persistence;

import dev.cryo.contracts.TableId;
import dev.cryo.scanner.app.TestCatalogResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The watcher's memory on the real PostgreSQL: what a poll stores is what the next one reads, and two
 * polls of one catalog at once (an operator's during the scheduled one, or two scanner instances) both
 * commit and leave one row per table.
 */
@QuarkusTest
@QuarkusTestResource(TestCatalogResource.class)
class WatcherStoreTest {

    private static final Instant POLLED = Instant.parse("2026-12-04T10:00:00Z");
    private static final int TABLES = 300;

    @Inject
    WatcherStore store;

    @Test
    void changedPointersAreWrittenAndVanishedTablesForgotten() {
        String catalog = catalog();
        TableId kept = new TableId(catalog, List.of("Sales", "EU"), "Orders");
        TableId moved = new TableId(catalog, List.of("Sales", "EU"), "order \"lines\"");
        TableId dropped = new TableId(catalog, List.of("raw"), "events");
        store.savePointers(catalog, Map.of(kept, "s3://lake/k/v1.json", moved, "s3://lake/m/v1.json",
                dropped, "s3://lake/d/v1.json"), List.of());

        store.savePointers(catalog, Map.of(moved, "s3://lake/m/v2.json"), List.of(dropped));

        assertThat(store.pointers(catalog)).containsExactlyInAnyOrderEntriesOf(Map.of(
                kept, "s3://lake/k/v1.json", moved, "s3://lake/m/v2.json"));
        assertThat(store.pointers(catalog + "_other")).isEmpty();
    }

    @Test
    void twoPollsStoringTheSameNewTablesAtOnceBothCommit() throws Exception {
        String catalog = catalog();
        Map<TableId, String> first = pointers(catalog, "v1");
        Map<TableId, String> second = pointers(catalog, "v2");

        List<Object> done = together(() -> {
            store.savePointers(catalog, first, List.of());
            return "first";
        }, () -> {
            store.savePointers(catalog, second, List.of());
            return "second";
        });

        assertThat(done).containsExactlyInAnyOrder("first", "second");
        Map<TableId, String> stored = store.pointers(catalog);
        assertThat(stored).hasSize(TABLES);
        // the later poll's write is whole: the two did not interleave table by table
        assertThat(stored.values().stream().map(location -> location.substring(location.lastIndexOf('/'))).distinct())
                .hasSize(1);
    }

    @Test
    void aFailedPollKeepsTheLastCountAndASuccessKeepsWhenItLastFailed() throws Exception {
        String catalog = catalog();
        together(() -> {
            store.recordPollFailure(catalog, POLLED, "Connection refused");
            return "first";
        }, () -> {
            store.recordPollFailure(catalog, POLLED, "Connection refused");
            return "second";
        });
        assertThat(store.status(catalog)).hasValue(new CatalogStatus(catalog, false, null, POLLED, "Connection refused", POLLED));

        store.recordPoll(catalog, 3, POLLED.plusSeconds(10));
        assertThat(store.status(catalog)).hasValue(new CatalogStatus(catalog, true, 3, POLLED.plusSeconds(10), null, POLLED));

        store.recordPollFailure(catalog, POLLED.plusSeconds(20), "403 Forbidden");
        assertThat(store.status(catalog)).hasValue(
                new CatalogStatus(catalog, false, 3, POLLED.plusSeconds(20), "403 Forbidden", POLLED.plusSeconds(20)));
        assertThat(store.knownCatalogs()).contains(catalog);
        assertThat(store.status(catalog + "_never")).isEmpty();
    }

    private static String catalog() {
        return "watch_" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static Map<TableId, String> pointers(String catalog, String version) {
        return IntStream.range(0, TABLES).mapToObj(i -> new TableId(catalog, List.of("db"), "t" + i))
                .collect(Collectors.toMap(Function.identity(), table -> "s3://lake/" + table.table() + "/" + version + ".json"));
    }

    /** Runs the work on as many threads at once and returns what each returned, in order. */
    @SafeVarargs
    private static List<Object> together(Callable<Object>... work) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(work.length);
        try {
            List<Object> results = new ArrayList<>();
            for (Future<Object> future : threads.invokeAll(List.of(work))) {
                results.add(future.get());
            }
            return results;
        } finally {
            threads.shutdownNow();
        }
    }
}
