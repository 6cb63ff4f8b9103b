package dev.outlierlab.sim;

import static dev.outlierlab.sim.Scenarios.S;
import static dev.outlierlab.sim.Scenarios.config;
import static dev.outlierlab.sim.Scenarios.scenario;
import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.trace.TraceRecord;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Observed traffic replayed under other settings: what arrives at a host the lab has ejected is counted as moved
 * elsewhere (per host: time ejected, requests and failures meanwhile) and, unlike an outcome trace, not reported
 * to the ejected host.
 */
class ReplayedTrafficTest {
    /** Three hosts; failure percentage ejects a host failing half or more of 5+ requests in an interval. */
    private static Scenario threeHosts() {
        return scenario(
                3,
                0,
                1,
                60 * S,
                List.of(),
                config(
                        OutlierSetting.MAX_EJECTION_PERCENT,
                        100,
                        OutlierSetting.ENFORCING_SUCCESS_RATE,
                        0,
                        OutlierSetting.CONSECUTIVE_5XX,
                        1000,
                        OutlierSetting.CONSECUTIVE_GATEWAY_FAILURE,
                        1000,
                        OutlierSetting.FAILURE_PERCENTAGE_THRESHOLD,
                        50,
                        OutlierSetting.ENFORCING_FAILURE_PERCENTAGE,
                        100,
                        OutlierSetting.FAILURE_PERCENTAGE_MINIMUM_HOSTS,
                        1,
                        OutlierSetting.FAILURE_PERCENTAGE_REQUEST_VOLUME,
                        5),
                null);
    }

    /** host-0 fails 10 requests in every second from 1 s to 49 s; the others succeed. */
    private static List<TraceRecord> traffic() {
        List<TraceRecord> out = new ArrayList<>();
        for (int second = 1; second < 50; second++) {
            for (int k = 0; k < 10; k++) {
                long t = second * S + k * 1_000_000L;
                out.add(new TraceRecord(t, 0, 503, null, out.size() + 1, true));
                out.add(new TraceRecord(t + 1, 1, 200, null, out.size() + 1, true));
            }
        }
        return out;
    }

    private static ReplayResult replay(boolean moved) {
        TraceReplay r = new TraceReplay(threeHosts(), RunOptions.DEFAULT, moved);
        traffic().forEach(r::offer);
        return r.finish();
    }

    @Test
    void trafficToAnEjectedHostIsCountedAsMovedAndNotReportedToIt() {
        ReplayResult moved = replay(true);
        // ejected at the 10 s tick for 30 s; its buckets stay empty while out, so it stays back at the 40 s tick
        // until its next full interval judges it again at 50 s
        assertThat(Scenarios.times(moved.run(), EventAction.EJECT)).containsExactly(10 * S, 50 * S);
        assertThat(Scenarios.times(moved.run(), EventAction.UNEJECT)).containsExactly(40 * S);
        HostTraffic h0 = moved.hosts().get(0);
        assertThat(h0.requests()).isEqualTo(490);
        assertThat(h0.failed()).isEqualTo(490);
        assertThat(h0.ejectedNanos()).isEqualTo(30 * S + 10 * S); // 10-40 s, then 50-60 s
        assertThat(h0.requestsWhileEjected()).isEqualTo(300); // seconds 10 to 39, 10 a second
        assertThat(h0.failedWhileEjected()).isEqualTo(300);
        assertThat(moved.hosts().get(1).requestsWhileEjected()).isZero();
        assertThat(moved.failedWhileEjected()).isEqualTo(300);
    }

    @Test
    void anOutcomeTraceStillReportsToTheEjectedHostSoItIsEjectedAgainOnReturn() {
        ReplayResult reported = replay(false);
        assertThat(Scenarios.times(reported.run(), EventAction.EJECT)).containsExactly(10 * S, 40 * S);
        assertThat(reported.hosts().get(0).requestsWhileEjected()).isEqualTo(300 + 100);
    }
}
