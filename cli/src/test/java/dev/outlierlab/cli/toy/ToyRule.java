package dev.outlierlab.cli.toy;

import dev.outlierlab.check.CheckRule;
import dev.outlierlab.check.Severity;

/** The toy profile's own check: what it reads of a cluster. */
enum ToyRule implements CheckRule {
    READS_CONSECUTIVE_ONLY(
            Severity.NOTE,
            "toy-reads-consecutive-only",
            "The toy reads consecutive_5xx only",
            "The toy ejects an endpoint after consecutive_5xx failures in a row, for a fixed time; it reads no other"
                    + " field.");

    private final Text text;

    ToyRule(Severity severity, String id, String title, String help) {
        this.text = new Text(severity, id, title, help);
    }

    @Override
    public Text text() {
        return text;
    }
}
