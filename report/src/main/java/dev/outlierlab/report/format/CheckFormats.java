package dev.outlierlab.report.format;

import dev.outlierlab.check.CheckRun;
import dev.outlierlab.report.FindingsJson;
import dev.outlierlab.report.FindingsText;
import dev.outlierlab.report.SarifReport;

/** The output formats of {@code check}'s findings: text, JSON and SARIF. */
public final class CheckFormats {
    /** {@code check}'s formats. */
    public static final Formats<CheckRun> CHECK = Formats.<CheckRun>of("check")
            // written cluster by cluster, each cluster's findings worked out as it is written: 100,000 clusters are
            // over 100 MB of text and 200,000 findings, neither held at once
            .with("text", "the findings by cluster, with fixes", (run, out) -> FindingsText.render(run.streamed(), out))
            .withText("json", "every finding with its numbers", run -> FindingsJson.toJson(run.whole()))
            .withText("sarif", "SARIF 2.1.0, for CI code-scanning annotations", run -> SarifReport.toJson(run.whole()));

    private CheckFormats() {}
}
