package dev.outlierlab.sim;

import static dev.outlierlab.sim.Scenarios.MS;
import static dev.outlierlab.sim.Scenarios.S;
import static dev.outlierlab.sim.Scenarios.config;
import static dev.outlierlab.sim.Scenarios.scenario;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import dev.outlierlab.engine.envoy.EjectionType;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.engine.envoy.RequestResult;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.HostSample;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.trace.TraceOrderException;
import dev.outlierlab.sim.trace.TraceRecord;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Replaying explicit outcomes through the same scheduler (spec 3: due ticks run first). */
class TraceReplayTest {

    /** Two hosts, cap 100, interval 10 s, base 30 s. */
    private static Scenario twoHosts(long durationNanos) {
        return hosts(2, durationNanos);
    }

    /** {@code n} hosts, cap 100. */
    private static Scenario hosts(int n, long durationNanos) {
        return scenario(n, 50, 1, durationNanos, List.of(), config(OutlierSetting.MAX_EJECTION_PERCENT, 100), null);
    }

    private static final class Trace {
        final List<TraceRecord> records = new ArrayList<>();

        Trace add(long t, int host, int code, int times) {
            for (int i = 0; i < times; i++) {
                records.add(new TraceRecord(t, host, code, null, records.size() + 1));
            }
            return this;
        }

        Trace add(long t, int host, RequestResult result) {
            records.add(new TraceRecord(t, host, -1, result, records.size() + 1));
            return this;
        }
    }

    @Test
    void outOfOrderRecordsAreRejectedWithTheirLine() {
        Trace tr = new Trace().add(S, 0, 200, 1).add(2 * S, 0, 200, 1).add(1500 * MS, 1, 500, 1);
        assertThatThrownBy(() -> TraceReplay.run(twoHosts(60 * S), tr.records.iterator(), RunOptions.DEFAULT))
                .isInstanceOfSatisfying(
                        TraceOrderException.class, e -> assertThat(e.line()).isEqualTo(3))
                .hasMessageContaining("line 3");
    }

    @Test
    void recordsAtOrPastTheDurationAreRejected() {
        Trace tr = new Trace().add(S, 0, 200, 1).add(60 * S, 0, 200, 1);
        assertThatThrownBy(() -> TraceReplay.run(twoHosts(60 * S), tr.records.iterator(), RunOptions.DEFAULT))
                .isInstanceOfSatisfying(
                        TraceOrderException.class, e -> assertThat(e.line()).isEqualTo(2))
                .hasMessageContaining("duration");
    }

    @Test
    void equalTimesAreInOrder() {
        Trace tr = new Trace().add(S, 0, 500, 5).add(S, 1, 200, 3);
        RunResult r = TraceReplay.run(twoHosts(60 * S), tr.records.iterator(), RunOptions.DEFAULT);
        assertThat(r.summary().requests()).isEqualTo(8);
        assertThat(r.summary().failed()).isEqualTo(5);
    }

    @Test
    void aTickAtARecordsTimeRunsBeforeTheRecord() {
        // host 0 is ejected at 0 by five 500s; the 30 s tick returns it. Five 500s at exactly 30 s then find it
        // back in rotation with fresh counters and eject it again. Had they been reported before the tick they
        // would have fallen on an ejected host and the tick would only have returned it.
        Trace tr = new Trace().add(0, 0, 500, 5).add(30 * S, 0, 500, 5);
        RunResult r = TraceReplay.run(twoHosts(60 * S), tr.records.iterator(), RunOptions.DEFAULT);
        assertThat(r.events())
                .extracting(OutlierEvent::timeNanos, OutlierEvent::action)
                .containsExactly(
                        tuple(0L, EventAction.EJECT),
                        tuple(30 * S, EventAction.UNEJECT),
                        tuple(30 * S, EventAction.EJECT));
    }

    @Test
    void recordsAtATicksTimeGoToTheNextBucket() {
        // five hosts; the 500/200 mix of host 4 at 10 s belongs to the bucket judged at 20 s, not 10 s
        Scenario s = scenario(5, 50, 1, 60 * S, List.of(), config(OutlierSetting.MAX_EJECTION_PERCENT, 100), null);
        Trace tr = new Trace();
        for (int h = 0; h < 4; h++) {
            tr.add(10 * S, h, 200, 100);
        }
        for (int i = 0; i < 50; i++) {
            tr.add(10 * S, 4, 500, 1).add(10 * S, 4, 200, 1);
        }
        RunResult r = TraceReplay.run(s, tr.records.iterator(), RunOptions.DEFAULT);
        // detected at 20 s (rates 100 x4 and 50: threshold 52), back 30 s later
        assertThat(r.events())
                .extracting(OutlierEvent::timeNanos, OutlierEvent::action, OutlierEvent::type)
                .containsExactly(
                        tuple(20 * S, EventAction.EJECT, EjectionType.SUCCESS_RATE),
                        tuple(50 * S, EventAction.UNEJECT, null));
    }

    @Test
    void ticksContinueToTheDurationAfterTheLastRecord() {
        // one ejection at 1 s; nothing after 1 s; the ticks keep running and return the host at 40 s (31 s > 30 s
        // needs the 40 s tick), and the tick at the duration itself (60 s) runs too
        Trace tr = new Trace().add(S, 0, 500, 5);
        RunResult r = TraceReplay.run(hosts(5, 60 * S), tr.records.iterator(), RunOptions.CHARTS);
        assertThat(r.events())
                .extracting(OutlierEvent::timeNanos, OutlierEvent::action)
                .containsExactly(tuple(S, EventAction.EJECT), tuple(40 * S, EventAction.UNEJECT));
        assertThat(r.stats()).containsEntry("ejections_active", 0L);
        // one evaluation per tick (external origin only, without split mode): ticks at 10, 20, ..., 60 s
        assertThat(r.intervals())
                .extracting(e -> e.timeNanos())
                .containsExactly(10 * S, 20 * S, 30 * S, 40 * S, 50 * S, 60 * S);
    }

    @Test
    void theTickAtExactlyTheDurationRuns() {
        // ejected at 0 for 30 s in a 30 s run: returned by the tick at 30 s
        Trace tr = new Trace().add(0, 1, 503, 5);
        RunResult r = TraceReplay.run(twoHosts(30 * S), tr.records.iterator(), RunOptions.DEFAULT);
        assertThat(Scenarios.times(r, EventAction.UNEJECT)).containsExactly(30 * S);
    }

    @Test
    void anEmptyTraceStillTicks() {
        // ticks at 10, 20 and 30 s, each evaluating the external origin (local only in split mode)
        RunResult r = TraceReplay.run(hosts(5, 30 * S), List.<TraceRecord>of().iterator(), RunOptions.CHARTS);
        assertThat(r.summary().requests()).isZero();
        assertThat(r.intervals()).extracting(e -> e.timeNanos()).containsExactly(10 * S, 20 * S, 30 * S);
    }

    @Test
    void resultsAreReportedAsGivenAndCountedAsFailuresOrNot() {
        // without split a timeout is a 504: five of them eject (gateway detection unenforced first)
        Trace tr = new Trace();
        for (int i = 0; i < 5; i++) {
            tr.add(S, 0, RequestResult.LOCAL_ORIGIN_TIMEOUT);
        }
        tr.add(2 * S, 1, RequestResult.LOCAL_ORIGIN_CONNECT_SUCCESS);
        RunResult r = TraceReplay.run(twoHosts(60 * S), tr.records.iterator(), RunOptions.DEFAULT);
        assertThat(r.events())
                .extracting(OutlierEvent::action, OutlierEvent::type)
                .containsExactly(
                        tuple(EventAction.UNENFORCED, EjectionType.CONSECUTIVE_GATEWAY_FAILURE),
                        tuple(EventAction.EJECT, EjectionType.CONSECUTIVE_5XX),
                        tuple(EventAction.UNEJECT, null));
        assertThat(r.summary().requests()).isEqualTo(6);
        assertThat(r.summary().failed()).isEqualTo(5);
    }

    @Test
    void theScenariosTrafficAndFaultsDoNotApply() {
        // a scenario with 600 rps and a 100 % fault: the replay sends only the trace's two records
        Scenario s = scenario(
                2,
                50,
                600,
                60 * S,
                List.of(FaultSpec.builder()
                        .hosts(List.of("host-0"))
                        .window(0, 60 * S)
                        .errorRatePpm(1_000_000)
                        .status(500)
                        .build()),
                config(OutlierSetting.MAX_EJECTION_PERCENT, 100),
                null);
        Trace tr = new Trace().add(S, 0, 200, 2);
        RunResult r = TraceReplay.run(s, tr.records.iterator(), RunOptions.DEFAULT);
        assertThat(r.summary().requests()).isEqualTo(2);
        assertThat(r.summary().failed()).isZero();
        assertThat(r.summary().requestsDuringFault()).isZero();
        assertThat(r.events()).isEmpty();
    }

    @Test
    void smallClustersStillReportTheirRatesForChartsButDetectNothing() {
        // two hosts are fewer than both minimums (5): Envoy skips detection, the charts still get the rates
        Trace tr = new Trace().add(S, 0, 500, 3).add(S, 1, 200, 4);
        RunResult r = TraceReplay.run(twoHosts(20 * S), tr.records.iterator(), RunOptions.CHARTS);
        assertThat(r.intervals()).hasSize(2);
        assertThat(r.intervals().get(0).samples())
                .extracting(HostSample::host, HostSample::requests, HostSample::successRatePercent)
                .containsExactly(tuple("host-0", 3L, 0.0), tuple("host-1", 4L, 100.0));
        assertThat(r.intervals().get(0).successRateRan()).isFalse();
        assertThat(r.intervals().get(0).failurePercentageRan()).isFalse();
        assertThat(r.intervals().get(1).samples()).isEmpty();
    }
}
