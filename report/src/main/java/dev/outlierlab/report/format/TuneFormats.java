package dev.outlierlab.report.format;

import dev.outlierlab.tune.TuneJson;
import dev.outlierlab.tune.TuneResult;
import dev.outlierlab.tune.TuneText;

/** The output formats of {@code tune}: the recommendation as text or JSON. */
public final class TuneFormats {
    /** {@code tune}'s formats. */
    public static final Formats<TuneResult> TUNE = Formats.<TuneResult>of("tune")
            .withText("text", "the recommendation, the target's file with a diff, and why", TuneText::render)
            .withText("json", "the recommendation and every candidate's score", TuneJson::write);

    private TuneFormats() {}
}
