package dev.cryo.console.domain;

import dev.cryo.contracts.event.PartitionFieldInfo;
import dev.cryo.contracts.event.PartitionSpecInfo;
import dev.cryo.contracts.event.PartitionStats;
import dev.cryo.contracts.event.TableScanned;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Where a table's small files are: one cell per partition of the last scan, coloured by its small-file
 * count. A spec with one field is a strip of cells in value order (days, hours, …), wrapped into rows;
 * a spec with more fields is a grid, the first field down and the others across.
 *
 * @param specs one block per partition spec that live files use, the newest spec first
 * @param maxSmallFiles the most small files of any partition (the darkest colour, from {@link #DARKEST_AT_LEAST})
 * @param partitions partitions in the scan
 * @param hiddenPartitions partitions left out because a spec had more than {@link #MAX_CELLS_PER_SPEC}
 *                         (those with the fewest small files are left out)
 */
public record HeatMap(List<SpecBlock> specs, long maxSmallFiles, long partitions, long hiddenPartitions) {

    /** Cells of one strip row. */
    public static final int CELLS_PER_ROW = 24;
    /** Cells one spec shows at most; a browser draws this many without effort. */
    public static final int MAX_CELLS_PER_SPEC = 1500;
    /** Colour steps above zero. */
    public static final int LEVELS = 5;
    /**
     * Small files that the darkest colour takes at least: a table whose worst partition has one or two
     * small files is not fragmented, and should not look as red as one with hundreds.
     */
    public static final long DARKEST_AT_LEAST = 10;

    /** A partition spec's cells. */
    public record SpecBlock(int specId, String fields, List<String> columns, List<Row> rows) {
        public SpecBlock {
            columns = List.copyOf(columns);
            rows = List.copyOf(rows);
        }

        /** Whether the block is a grid with column headings (two fields or more). */
        public boolean grid() {
            return !columns.isEmpty();
        }
    }

    public record Row(String label, List<Cell> cells) {
        public Row {
            cells = List.copyOf(cells);
        }
    }

    /**
     * One partition, or an empty grid position where no partition exists.
     *
     * @param level 0 (no small file) to {@link #LEVELS} (the most); -1 for an empty position
     */
    public record Cell(String label, long smallFiles, long dataFiles, long smallFileBytes, long deleteFiles, int level) {

        static final Cell EMPTY = new Cell("", 0, 0, 0, 0, -1);

        public boolean empty() {
            return level < 0;
        }

        /** The hover text: where, and what it holds. */
        public String title() {
            if (empty()) {
                return "no partition";
            }
            return label + ": " + Formats.count(smallFiles) + " small of " + Formats.count(dataFiles) + " data files ("
                    + Formats.bytes(smallFileBytes) + " small)" + (deleteFiles > 0 ? ", " + Formats.count(deleteFiles)
                    + " delete files" : "");
        }
    }

    public HeatMap {
        specs = List.copyOf(specs);
    }

    public boolean empty() {
        return partitions == 0;
    }

    public static HeatMap of(TableScanned scan) {
        Map<Integer, PartitionSpecInfo> specsById = scan.specs().stream()
                .collect(Collectors.toMap(PartitionSpecInfo::specId, spec -> spec, (a, b) -> a));
        Map<Integer, List<PartitionStats>> bySpec = new TreeMap<>(Comparator.reverseOrder());
        for (PartitionStats partition : scan.partitions()) {
            bySpec.computeIfAbsent(partition.specId(), id -> new ArrayList<>()).add(partition);
        }
        long max = scan.partitions().stream().mapToLong(PartitionStats::smallFiles).max().orElse(0);
        long darkest = Math.max(max, DARKEST_AT_LEAST);
        long hidden = 0;
        List<SpecBlock> blocks = new ArrayList<>();
        for (Map.Entry<Integer, List<PartitionStats>> entry : bySpec.entrySet()) {
            List<PartitionFieldInfo> fields = specsById.containsKey(entry.getKey())
                    ? specsById.get(entry.getKey()).fields() : List.of();
            List<PartitionStats> shown = entry.getValue();
            if (shown.size() > MAX_CELLS_PER_SPEC) {
                hidden += shown.size() - MAX_CELLS_PER_SPEC;
                shown = shown.stream().sorted(Comparator.comparingLong(PartitionStats::smallFiles).reversed())
                        .limit(MAX_CELLS_PER_SPEC).toList();
            }
            blocks.add(block(entry.getKey(), fields, shown, darkest));
        }
        return new HeatMap(blocks, max, scan.partitions().size(), hidden);
    }

    private static SpecBlock block(int specId, List<PartitionFieldInfo> fields, List<PartitionStats> partitions,
                                   long max) {
        String description = fields.isEmpty() ? "unpartitioned" : fields.stream()
                .map(field -> field.name() + " = " + field.transform() + "(" + field.sourceColumn() + ")")
                .collect(Collectors.joining(", "));
        List<PartitionStats> ordered = new ArrayList<>(partitions);
        ordered.sort((a, b) -> compareValues(a.values(), b.values()));
        if (fields.size() < 2) {
            List<Row> rows = new ArrayList<>();
            for (int start = 0; start < ordered.size(); start += CELLS_PER_ROW) {
                List<Cell> cells = ordered.subList(start, Math.min(start + CELLS_PER_ROW, ordered.size())).stream()
                        .map(partition -> cell(fields, partition, max)).toList();
                rows.add(new Row(cells.get(0).label(), cells));
            }
            return new SpecBlock(specId, description, List.of(), rows);
        }
        // A grid: the first field's values down, the combination of the others across.
        Map<String, String> rowLabels = new LinkedHashMap<>();
        Map<String, String> columnLabels = new TreeMap<>(PartitionLabels::compare);
        Map<String, Map<String, Cell>> cells = new LinkedHashMap<>();
        for (PartitionStats partition : ordered) {
            String rowKey = String.valueOf(partition.values().get(0));
            String columnKey = String.join("/", partition.values().subList(1, partition.values().size()).stream()
                    .map(String::valueOf).toList());
            rowLabels.putIfAbsent(rowKey, PartitionLabels.label(fields.get(0).transform(), partition.values().get(0)));
            columnLabels.putIfAbsent(columnKey, labels(fields.subList(1, fields.size()),
                    partition.values().subList(1, partition.values().size())));
            cells.computeIfAbsent(rowKey, key -> new LinkedHashMap<>()).put(columnKey, cell(fields, partition, max));
        }
        List<Row> rows = new ArrayList<>();
        for (Map.Entry<String, String> row : rowLabels.entrySet()) {
            Map<String, Cell> rowCells = cells.get(row.getKey());
            rows.add(new Row(row.getValue(), columnLabels.keySet().stream()
                    .map(column -> rowCells.getOrDefault(column, Cell.EMPTY)).toList()));
        }
        return new SpecBlock(specId, description, List.copyOf(columnLabels.values()), rows);
    }

    private static Cell cell(List<PartitionFieldInfo> fields, PartitionStats partition, long max) {
        String label = fields.isEmpty() ? "whole table" : labels(fields, partition.values());
        return new Cell(label, partition.smallFiles(), partition.dataFiles(), partition.smallFileBytes(),
                partition.deleteFiles(), level(partition.smallFiles(), max));
    }

    /** 0 for no small file, else 1..LEVELS in proportion to the darkest count. */
    static int level(long smallFiles, long max) {
        if (smallFiles <= 0 || max <= 0) {
            return 0;
        }
        return (int) Math.max(1, Math.min(LEVELS, Math.ceil(LEVELS * (double) smallFiles / max)));
    }

    private static String labels(List<PartitionFieldInfo> fields, List<String> values) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            String transform = i < fields.size() ? fields.get(i).transform() : null;
            parts.add(PartitionLabels.label(transform, values.get(i)));
        }
        return String.join(" · ", parts);
    }

    private static int compareValues(List<String> left, List<String> right) {
        for (int i = 0; i < Math.min(left.size(), right.size()); i++) {
            int order = PartitionLabels.compare(left.get(i), right.get(i));
            if (order != 0) {
                return order;
            }
        }
        return Integer.compare(left.size(), right.size());
    }
}
