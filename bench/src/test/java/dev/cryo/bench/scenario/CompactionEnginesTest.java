package dev.cryo.bench.scenario;

import dev.cryo.contracts.TableId;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CompactionEnginesTest {

    private static final TableId TABLE = TableId.of("lakehouse", "b1_s8_t0_engines", "trino_t1");
    private static final long TARGET = 134_217_728L;

    @Test
    void trinoRunsTheRenderersOptimizeWithTheTargetInTheSession() {
        assertThat(CompactionEngines.trinoStatements(TABLE, TARGET)).containsExactly(
                "SET SESSION \"lakehouse\".target_max_file_size = '134217728B'",
                "ALTER TABLE \"lakehouse\".\"b1_s8_t0_engines\".\"trino_t1\" EXECUTE optimize(file_size_threshold => '100663296B')");
    }

    @Test
    void sparkRunsRewriteDataFilesWithTheRenderersOptionsAndTheSameTarget() {
        assertThat(CompactionEngines.sparkStatements(TABLE, TARGET)).containsExactly(
                "CALL lakehouse.system.rewrite_data_files(table => '`b1_s8_t0_engines`.`trino_t1`', options => "
                        + "map('min-input-files', '2', 'partial-progress.enabled', 'true', 'use-starting-sequence-number', "
                        + "'true', 'target-file-size-bytes', '134217728'))");
    }

    @Test
    void scenarioEightIsTheLastOfTheProtocol() {
        assertThat(Scenarios.all()).extracting(Scenario::id).endsWith(8);
        assertThat(new CompactionEngines().title()).contains("Trino optimize").contains("Spark rewrite_data_files");
    }
}
