package dev.outlierlab.flink;

/**
 * What a job hands back to its client (a Flink POJO): the plan, an input's tally of bad and skipped lines, or
 * one detector's rendered section of the report, numbered in the report's order; or one run of a sweep or a tune.
 */
public class Piece {
    static final int PLAN = 0;
    static final int TALLY = 1;
    static final int SECTION = 2;
    /** A detector's figures for the report's total across detectors ({@code ReplayTotalText.Tally}). */
    static final int TOTAL = 5;
    /** One input's part of the plan ({@link FleetPlan} of its outcomes), made by its reader; merged into the plan. */
    static final int PART = 6;
    /** A sweep's run: its {@code SweepCommand.RunRow}, serialised. */
    static final int RUN = 3;
    /** A tune's run: its {@code FleetTuneJob.ShippedRun} there, its figures back, serialised. */
    static final int TUNE_RUN = 4;

    public int kind;
    /** The input's number (a tally), the detector's (a section) or the run's. */
    public int index;
    /** The plan, the tally or the run's row, serialised. */
    public byte[] bytes;
    /** The section: text, or the detector's JSON entry. */
    public String text;

    public Piece() {}

    static Piece of(int kind, int index, byte[] bytes, String text) {
        Piece p = new Piece();
        p.kind = kind;
        p.index = index;
        p.bytes = bytes;
        p.text = text;
        return p;
    }
}
