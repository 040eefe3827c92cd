package dev.cryo.enginesql;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every rendering is compared with its checked-in golden file under
 * {@code src/test/resources/golden/<engine>/<operation>-<transform>.sql}. A changed rendering fails
 * here until the golden file is deliberately rewritten with {@code -Dgolden.update=true} and the
 * diff is reviewed.
 */
class GoldenRenderingTest {

    private static final Path GOLDEN = Path.of(System.getProperty("golden.directory", "src/test/resources/golden"));
    private static final boolean UPDATE = Boolean.getBoolean("golden.update");

    static List<GoldenCases.GoldenCase> cases() {
        return GoldenCases.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void renderingMatchesItsGoldenFile(GoldenCases.GoldenCase golden) throws IOException {
        Rendering rendering = Fixtures.renderer(golden.engine()).render(golden.table(), golden.planned(), golden.chunk());
        String actual = GoldenCases.text(rendering);
        Path file = GOLDEN.resolve(golden.fileName());
        if (UPDATE) {
            Files.createDirectories(file.getParent());
            Files.writeString(file, actual, StandardCharsets.UTF_8);
        }
        assertThat(file).as("golden file %s (create it with -Dgolden.update=true)", file).exists();
        assertThat(actual)
                .as("rendering of %s differs from its golden file; if the change is intended, rerun with "
                        + "-Dgolden.update=true and review the diff", golden)
                .isEqualTo(Files.readString(file, StandardCharsets.UTF_8));
    }

    @Test
    void everyGoldenFileBelongsToACase() throws IOException {
        Set<String> expected = cases().stream().map(GoldenCases.GoldenCase::fileName).collect(Collectors.toCollection(TreeSet::new));
        Set<String> present;
        try (Stream<Path> files = Files.walk(GOLDEN)) {
            present = files.filter(Files::isRegularFile)
                    .map(file -> GOLDEN.relativize(file).toString().replace('\\', '/'))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
        assertThat(present).as("golden files without a case are stale").isEqualTo(expected);
    }
}
