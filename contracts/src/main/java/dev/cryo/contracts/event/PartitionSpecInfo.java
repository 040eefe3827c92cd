package dev.cryo.contracts.event;

import java.util.List;

/** A partition spec of the table (current or older: files of an older spec keep it). */
public record PartitionSpecInfo(int specId, List<PartitionFieldInfo> fields) {
    public PartitionSpecInfo {
        Require.nonNegative(specId, "specId");
        fields = Require.list(fields, "fields");
    }

    @com.fasterxml.jackson.annotation.JsonIgnore
    public boolean isUnpartitioned() {
        return fields.isEmpty();
    }
}
