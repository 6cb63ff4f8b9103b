package dev.outlierlab.report;

import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.tune.SuiteScenario;
import dev.outlierlab.tune.Target;
import dev.outlierlab.tune.TuneResult;

/**
 * {@code tune --explain SCENARIO}: the recommended setting run on one scenario of the suite (seed 1) and its
 * decisions shown as {@code run} shows them, under the recommendation's own profile ({@link TuneTrace}).
 */
public final class RecommendationTrace {
    /** The decisions the trace shows at most. */
    static final int SHOWN = 200;

    private RecommendationTrace() {}

    /** The trace's section, to follow the recommendation's text: a heading line, then run's report. */
    public static String render(TuneResult result, SuiteScenario explained, EnvoyVersion version) {
        Target.Written w = result.recommended().written();
        Scenario scenario = explained.with(1, w.config(), w.panicThresholdPercent(), version);
        String trace = TuneTrace.of(w.profile(), scenario, SHOWN);
        return "\nDecision trace of the recommendation on " + explained.name() + " (seed 1):\n" + trace;
    }
}
