package dev.outlierlab.tune;

import dev.outlierlab.check.FixStyle;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.EjectionType;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * Which detectors one caller's traffic lets run under the current settings, one line each: the requests a host gets
 * an interval against each detector's volume and minimum hosts, and what would let a detector that cannot run do so;
 * in the target's own words when it has them ({@link Target#detectors(TuneRequest)}).
 */
final class DetectorReach {
    private DetectorReach() {}

    /** What one caller's traffic lets each detector do at the current interval. */
    static List<String> of(TuneRequest req) {
        List<String> own = req.target().detectors(req);
        if (own != null) {
            return own;
        }
        OutlierDetectionConfig c = req.current();
        long interval = c.intervalNanos();
        long v = req.perHostPerInterval(interval);
        String per = "each host gets " + v + " requests per " + Durations.format(interval) + " interval from "
                + (req.clients() == 1 ? "the caller" : "each of the " + req.clients() + " callers");
        List<String> out = new ArrayList<>();
        boolean srRuns = v >= c.successRateRequestVolume() && req.hosts() >= c.successRateMinimumHosts();
        FixStyle style = TuneWords.of(req, null).advice().style();
        if (c.enforcingPercent(EjectionType.SUCCESS_RATE) == 0 && !req.target().choosesSuccessRate()) {
            out.add("success rate never ejects: it needs enforcing_success_rate above 0, which "
                    + style.whyCannot("enforcing_success_rate") + "; " + per);
        } else if (srRuns) {
            out.add("success rate can run: " + per + ", at least success_rate_request_volume "
                    + c.successRateRequestVolume() + ", and " + req.hosts() + " hosts reach success_rate_minimum_hosts "
                    + c.successRateMinimumHosts());
        } else {
            String because = v < c.successRateRequestVolume()
                    ? per + ", under success_rate_request_volume " + c.successRateRequestVolume()
                    : req.hosts() + " hosts are fewer than success_rate_minimum_hosts " + c.successRateMinimumHosts();
            long v30 = req.perHostPerInterval(30 * Durations.SECOND);
            out.add("success rate cannot run: " + because + "; "
                    + (v * 4 / 5 >= SearchSpace.MIN_SUCCESS_RATE_VOLUME
                            ? "a volume of " + v * 4 / 5 + " would let it"
                            : v30 * 4 / 5 >= SearchSpace.MIN_SUCCESS_RATE_VOLUME
                                    ? "a 30s interval with a volume of " + v30 * 4 / 5
                                            + " would let it, at the cost of slower detection"
                                    : "no volume a host reaches is enough to compare rates"));
        }
        boolean fpRuns = v >= c.failurePercentageRequestVolume() && req.hosts() >= c.failurePercentageMinimumHosts();
        if (!req.target().hasFailurePercentage() && c.enforcingPercent(EjectionType.FAILURE_PERCENTAGE) == 0) {
            out.add("failure percentage never ejects: it needs enforcing_failure_percentage above 0 and a "
                    + "failure_percentage_threshold, which " + style.whyCannot("failure_percentage_threshold"));
        } else {
            out.add("failure percentage "
                    + (fpRuns
                            ? "can run: " + per + ", at least failure_percentage_request_volume "
                                    + c.failurePercentageRequestVolume()
                            : v >= c.failurePercentageRequestVolume()
                                    ? "cannot run: " + req.hosts() + " hosts are fewer than "
                                            + "failure_percentage_minimum_hosts " + c.failurePercentageMinimumHosts()
                                            + " ("
                                            + per + ", enough "
                                            + "for failure_percentage_request_volume "
                                            + c.failurePercentageRequestVolume()
                                            + ")"
                                            + (req.target().choosesFailurePercentageVolume()
                                                    ? "; it can with failure_percentage_minimum_hosts " + req.hosts()
                                                    : "")
                                    : "cannot run at failure_percentage_request_volume "
                                            + c.failurePercentageRequestVolume() + " (" + per + ")"
                                            + (v * 4 / 5 >= SearchSpace.MIN_FAILURE_PERCENTAGE_VOLUME
                                                    ? "; it can with a volume of " + v * 4 / 5
                                                    : ""))
                    + (req.target().hasFailurePercentage()
                            ? ""
                            : "; " + req.target().description() + " cannot set it"));
        }
        if (!req.target().hasConsecutive()) {
            out.add("consecutive failures: gRPC's outlier detection has no consecutive detector; only success rate "
                    + "and failure percentage eject, each once a sweep");
            return out;
        }
        out.add(
                "consecutive 5xx can run: it needs no volume, only a run of failures in one caller's requests to the host, "
                        + "so it catches dead hosts at any traffic and partial failures only when their runs are long");
        return out;
    }
}
