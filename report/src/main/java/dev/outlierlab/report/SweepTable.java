package dev.outlierlab.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A sweep's results: the keys varied, the figures' column names, and one row per combination, rendered as an
 * aligned table, CSV or JSON.
 *
 * @param keys    the keys varied, in the order of {@code --vary}
 * @param columns the names of the figures, in column order
 * @param rows    one per run, in the order the combinations were run
 */
public record SweepTable(List<String> keys, List<String> columns, List<Row> rows) {
    /** One run: the values chosen, its figures in column order, and its summary as JSON. */
    public record Row(List<String> values, List<String> figures, ObjectNode summary) {}

    /** The table aligned: the varied values to the left, the figures to the right. */
    public String text() {
        List<List<String>> table = new ArrayList<>();
        List<String> header = new ArrayList<>(keys);
        header.addAll(columns);
        table.add(header);
        for (Row r : rows) {
            List<String> line = new ArrayList<>(r.values());
            line.addAll(r.figures());
            table.add(line);
        }
        int[] widths = new int[header.size()];
        for (List<String> line : table) {
            for (int i = 0; i < line.size(); i++) {
                widths[i] = Math.max(widths[i], line.get(i).length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (List<String> line : table) {
            StringBuilder l = new StringBuilder();
            for (int i = 0; i < line.size(); i++) {
                String cell = line.get(i);
                l.append(
                                i < keys.size()
                                        ? String.format(Locale.ROOT, "%-" + widths[i] + "s", cell)
                                        : String.format(Locale.ROOT, "%" + widths[i] + "s", cell))
                        .append("  ");
            }
            out.append(l.toString().stripTrailing()).append('\n');
        }
        return out.toString();
    }

    /** The table as CSV: column names in snake case, values with a comma or quote quoted. */
    public String csv() {
        StringBuilder out = new StringBuilder();
        List<String> header = new ArrayList<>(keys);
        for (String c : columns) {
            header.add(c.replace(' ', '_').replace("%", "percent"));
        }
        out.append(String.join(",", header)).append('\n');
        for (Row r : rows) {
            List<String> line = new ArrayList<>();
            r.values()
                    .forEach(v ->
                            line.add(v.contains(",") || v.contains("\"") ? "\"" + v.replace("\"", "\"\"") + "\"" : v));
            line.addAll(r.figures());
            out.append(String.join(",", line)).append('\n');
        }
        return out.toString();
    }

    /** The runs as JSON: the keys varied, and each run's values (typed) and summary. */
    public String json() {
        ObjectNode root = JsonDocument.start("sweep");
        ArrayNode varied = root.putArray("varied");
        keys.forEach(varied::add);
        ArrayNode runs = root.putArray("runs");
        for (Row r : rows) {
            ObjectNode run = runs.addObject();
            ObjectNode set = run.putObject("set");
            for (int i = 0; i < keys.size(); i++) {
                JsonDocument.putTyped(set, keys.get(i), r.values().get(i));
            }
            run.set("summary", r.summary());
        }
        return ResultJson.write(root);
    }
}
