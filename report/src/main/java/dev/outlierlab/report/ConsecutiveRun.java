package dev.outlierlab.report;

import dev.outlierlab.sim.scenario.FaultPattern;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.List;

/**
 * The longest run of failures in a row that a scenario's faults can give one host, which is all Envoy's
 * {@code DetectorImpl::onConsecutive5xx} counter can reach: for evenly spread faults it is
 * {@link FaultSpec#longestFailureRun()}; it is not known (-1) when a fault fails at random or in bursts (any run
 * has a chance), when two faults overlap on a host, when several callers each see part of a host's requests, or
 * when local-origin failures are counted apart ({@code split_external_local_origin_errors}).
 */
public final class ConsecutiveRun {
    private ConsecutiveRun() {}

    /** The longest run of 5xx on any host, {@code Long.MAX_VALUE} for a host failing every request, or -1. */
    public static long longest(Scenario s) {
        if (s.traffic().clients() > 1 || s.outlierDetection().splitExternalLocalOriginErrors()) {
            return -1;
        }
        List<FaultSpec> faults = s.faults();
        long longest = 0;
        for (int i = 0; i < faults.size(); i++) {
            FaultSpec f = faults.get(i);
            if (f.errorRatePpm() == 0
                    || f.degraded()
                    || (f.result() == null && (f.status() < 500 || f.status() > 599))) {
                continue;
            }
            if (f.pattern() != FaultPattern.EVEN && f.errorRatePpm() < FaultSpec.PPM) {
                return -1;
            }
            for (int j = 0; j < i; j++) {
                if (overlap(f, faults.get(j))) {
                    return -1;
                }
            }
            longest = Math.max(longest, f.longestFailureRun());
        }
        return longest;
    }

    private static boolean overlap(FaultSpec a, FaultSpec b) {
        return a.startNanos() < b.endNanos()
                && b.startNanos() < a.endNanos()
                && a.hosts().stream().anyMatch(b.hosts()::contains)
                && b.errorRatePpm() > 0;
    }
}
