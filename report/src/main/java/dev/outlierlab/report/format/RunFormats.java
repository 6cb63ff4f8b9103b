package dev.outlierlab.report.format;

import dev.outlierlab.check.FixAdvice;
import dev.outlierlab.report.ResultJson;
import dev.outlierlab.report.RunCsv;
import dev.outlierlab.report.TextReport;
import dev.outlierlab.sim.RunResult;

/** The output formats of {@code run} under the lab's Envoy report: text, JSON and a table of decisions. */
public final class RunFormats {
    /**
     * A run and what its report adds to it.
     *
     * @param result      the run
     * @param maxEvents   how many decisions the text shows
     * @param source      where the outcomes came from when not synthetic (a trace), or null
     * @param hinges      the text's part on the fault pattern and the settings it hinges on, or null
     * @param advice      how the text words its fixes (the configuration the run came from)
     * @param withSignals whether JSON carries the operators' signals
     */
    public record RunView(
            RunResult result, int maxEvents, String source, String hinges, FixAdvice advice, boolean withSignals) {}

    /** {@code run}'s formats; profiles with a runner of their own offer a part of them. */
    public static final Formats<RunView> RUN = Formats.<RunView>of("run")
            .withText(
                    "text",
                    "the decisions and the numbers behind each",
                    v -> TextReport.render(v.result(), v.maxEvents(), v.source(), v.hinges(), v.advice()))
            .withText(
                    "json",
                    "the lab-model contract: scenario, summary, stats, events",
                    v -> ResultJson.toJson(v.result(), false, v.withSignals()))
            .withText("csv", "one row per decision with its numbers (profile envoy)", v -> RunCsv.render(v.result()));

    private RunFormats() {}
}
