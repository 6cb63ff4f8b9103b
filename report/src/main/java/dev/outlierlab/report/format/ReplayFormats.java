package dev.outlierlab.report.format;

import dev.outlierlab.config.Wording;
import dev.outlierlab.report.ReplayOutput;
import java.util.List;

/** The output formats of {@code replay}: text, JSON, and one row per detector and host. */
public final class ReplayFormats {
    /** A replay's report and how many decisions per detector the text shows. */
    public record ReplayView(ReplayOutput report, int maxEvents) {}

    /** {@code replay}'s formats. */
    public static final Formats<ReplayView> REPLAY = Formats.<ReplayView>of("replay")
            // names come from the log: escaped, so that a host name cannot drive the terminal
            .withText(
                    "text",
                    "each detector's decisions and totals",
                    v -> Wording.printableLines(v.report().text(v.maxEvents())))
            .withText(
                    "json",
                    "every detector's summary and decisions",
                    v -> v.report().json())
            .withText(
                    "csv",
                    "one row per detector and host: ejections, time ejected, requests and failures while ejected",
                    v -> v.report().csv());

    /** The formats of a replay run as a Flink job, whose report comes back rendered (no table). */
    public static final Formats<ReplayView> REPLAY_ON_FLINK =
            REPLAY.only("replay --engine flink", List.of("text", "json"));

    private ReplayFormats() {}
}
