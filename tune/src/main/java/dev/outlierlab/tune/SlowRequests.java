package dev.outlierlab.tune;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The requests a setting leaves waiting for a failed attempt, in words for the "why": a request answered only after a
 * timed-out attempt on another host did not fail, but its caller waited the timeout (nginx's
 * {@code proxy_read_timeout}, 60 s by default; an Envoy or Istio route's {@code per_try_timeout}). {@link ScenarioScore} counts each such slow request as one failure in
 * the share removed; this says how many there are, scenario by scenario, beside the current settings' figures.
 */
final class SlowRequests {
    /** Figures below this (per 1,000 requests) print as 0.0 and are left out. */
    private static final double SHOWN = 0.05;

    private SlowRequests() {}

    /**
     * E.g. {@code It leaves requests waiting for a timed-out attempt ...: one-host-timeout 116.7 per 1,000 (0.6 with
     * the current settings), ... 60.0 s each on average.}; null when neither setting delays any request.
     */
    static String sentence(Evaluation current, Evaluation best) {
        List<String> parts = new ArrayList<>();
        long delayed = 0;
        long waited = 0;
        for (ScenarioScore sc : best.scores()) {
            ScenarioScore cur = current.score(sc.scenario().name());
            double mine = sc.slowPerThousand(false);
            double theirs = cur == null ? 0 : cur.slowPerThousand(false);
            if (mine < SHOWN && theirs < SHOWN) {
                continue;
            }
            parts.add(sc.scenario().name() + " " + one(mine) + " per 1,000"
                    + (best == current ? "" : " (" + one(theirs) + " with the current settings)"));
            for (RunFigures r : sc.runs()) {
                delayed += r.delayedRequests();
                waited += r.delayNanos();
            }
        }
        if (parts.isEmpty()) {
            return null;
        }
        String each = delayed == 0 ? "" : ", " + one(waited / 1e9 / delayed) + " s each on average";
        return (delayed > 0
                        ? "It leaves requests waiting for a timed-out attempt before another host answers them"
                        : "It spares the requests that waited for a timed-out attempt with the current settings")
                + " (slow requests, each counted as a failure in the share removed): " + String.join(", ", parts)
                + each + ".";
    }

    private static String one(double d) {
        return String.format(Locale.ROOT, "%.1f", d);
    }
}
