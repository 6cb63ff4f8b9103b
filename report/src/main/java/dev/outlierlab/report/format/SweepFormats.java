package dev.outlierlab.report.format;

import dev.outlierlab.report.SweepTable;

/** The output formats of {@code sweep}: an aligned table, CSV, or one summary per run as JSON. */
public final class SweepFormats {
    /** {@code sweep}'s formats. */
    public static final Formats<SweepTable> SWEEP = Formats.<SweepTable>of("sweep")
            .withText("text", "one aligned row per run", SweepTable::text)
            .withText("csv", "one row per run", SweepTable::csv)
            .withText("json", "one summary per run", SweepTable::json);

    private SweepFormats() {}
}
