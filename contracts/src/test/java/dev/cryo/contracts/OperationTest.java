package dev.cryo.contracts;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OperationTest {

    @Test
    void declaresTheSevenOperationsInTheFixedOrder() {
        assertThat(Operation.values()).extracting(Operation::id).containsExactly(
                "convert_deletes", "rewrite_position_deletes", "optimize", "compute_statistics",
                "optimize_manifests", "expire_snapshots", "remove_orphan_files");
    }

    @Test
    void ordersAndDeduplicates() {
        List<Operation> ordered = Operation.inFixedOrder(List.of(
                Operation.REMOVE_ORPHAN_FILES, Operation.OPTIMIZE, Operation.EXPIRE_SNAPSHOTS, Operation.OPTIMIZE,
                Operation.CONVERT_DELETES));

        assertThat(ordered).containsExactly(Operation.CONVERT_DELETES, Operation.OPTIMIZE,
                Operation.EXPIRE_SNAPSHOTS, Operation.REMOVE_ORPHAN_FILES);
        assertThat(Operation.inFixedOrder(List.of())).isEmpty();
    }

    @Test
    void partitionScopedOperationsAreTheRewrites() {
        assertThat(List.of(Operation.values()))
                .filteredOn(operation -> operation.scope() == Operation.Scope.PARTITIONS)
                .containsExactly(Operation.CONVERT_DELETES, Operation.REWRITE_POSITION_DELETES, Operation.OPTIMIZE);
    }

    @Test
    void rejectsUnknownIdsNamingTheValidOnes() {
        assertThatThrownBy(() -> Operation.fromId("vacuum"))
                .hasMessageStartingWith("Cannot parse operation 'vacuum': expected one of [convert_deletes,");
    }

    @Test
    void everyCheckIsFixedByOneOfTheOperations() {
        assertThat(Check.values()).hasSize(14);
        assertThat(Check.fromId("manifest-clustering").fixedBy()).isEqualTo(Operation.OPTIMIZE_MANIFESTS);
        assertThat(Check.fromId("equality-deletes").fixedBy()).isEqualTo(Operation.CONVERT_DELETES);
    }
}
