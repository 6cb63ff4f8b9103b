package dev.outlierlab.engine.envoy;

import static dev.outlierlab.engine.envoy.Fixtures.S;
import static dev.outlierlab.engine.envoy.Fixtures.config;
import static dev.outlierlab.engine.envoy.Fixtures.respond;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.outlierlab.engine.SeededRandom;
import dev.outlierlab.engine.envoy.Fixtures.Events;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.FailurePercentageEvidence;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.engine.envoy.event.SuccessRateEvidence;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/** Success rate and failure percentage as the interval tick runs them (spec 6, tick steps 1 to 3). */
class IntervalDetectionTest {
    private final Events events = new Events();

    private List<HostMonitor> hosts(OutlierDetector d, int n) {
        List<HostMonitor> list = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            list.add(d.addHost("h" + i));
        }
        return list;
    }

    /** {@code successes} 200s and {@code failures} 500s, interleaved so no run of 5xx reaches 2. */
    private static void mix(HostMonitor h, int successes, int failures, long t) {
        int s = successes;
        int f = failures;
        while (s > 0 || f > 0) {
            if (f > 0) {
                h.putHttpResponseCode(500, t);
                f--;
            }
            int run = f > 0 ? Math.max(1, s / (f + 1)) : s;
            for (int i = 0; i < run && s > 0; i++, s--) {
                h.putHttpResponseCode(200, t);
            }
        }
    }

    @Test
    void envoysFiftyPercentHostIsEjectedBySuccessRate() {
        // cap 20 admits one of five hosts (100 * 1 / 5 = 20 <= 20)
        OutlierDetector d =
                new OutlierDetector(config(OutlierSetting.MAX_EJECTION_PERCENT, 20), new SeededRandom(1), events);
        List<HostMonitor> h = hosts(d, 5);
        for (int i = 0; i < 4; i++) {
            respond(h.get(i), 200, 200, 5 * S);
        }
        mix(h.get(4), 100, 100, 5 * S);
        assertThat(h.get(4).consecutive5xx()).isLessThan(5);
        d.tick(10 * S);
        assertThat(events.all).hasSize(1);
        OutlierEvent e = events.last();
        assertThat(e.action()).isEqualTo(EventAction.EJECT);
        assertThat(e.type()).isEqualTo(EjectionType.SUCCESS_RATE);
        assertThat(e.host()).isEqualTo("h4");
        assertThat(e.timeNanos()).isEqualTo(10 * S);
        SuccessRateEvidence ev = (SuccessRateEvidence) e.evidence();
        // rates 100 x4 and 50: mean 90, stdev 20, threshold 52 (Envoy's example)
        assertThat(ev.hostSuccessRatePercent()).isEqualTo(50.0);
        assertThat(ev.hostRequests()).isEqualTo(200);
        assertThat(ev.meanPercent()).isEqualTo(90.0);
        assertThat(ev.stdevPercent()).isEqualTo(20.0);
        assertThat(ev.thresholdPercent()).isEqualTo(52.0);
        assertThat(ev.hostsEvaluated()).isEqualTo(5);
        assertThat(d.stats().detected(EjectionType.SUCCESS_RATE)).isEqualTo(1);
        assertThat(d.stats().enforced(EjectionType.SUCCESS_RATE)).isEqualTo(1);
        assertThat(d.stats().ejectionsActive()).isEqualTo(1);
    }

    @Test
    void seedExampleOneHostAt80AmongFourAt99Point9() {
        OutlierDetector d =
                new OutlierDetector(config(OutlierSetting.MAX_EJECTION_PERCENT, 20), new SeededRandom(1), events);
        List<HostMonitor> h = hosts(d, 5);
        for (int i = 0; i < 4; i++) {
            mix(h.get(i), 999, 1, 3 * S); // 99.9 %
        }
        mix(h.get(4), 800, 200, 3 * S); // 80 %
        d.tick(10 * S);
        assertThat(events.all)
                .extracting(OutlierEvent::host, OutlierEvent::action)
                .containsExactly(Tuple.tuple("h4", EventAction.EJECT));
        SuccessRateEvidence ev = (SuccessRateEvidence) events.last().evidence();
        // threshold 95.92 - 1.9 * 7.96 = 80.796
        assertThat(ev.thresholdPercent()).isCloseTo(80.796, within(1e-9));
        assertThat(ev.hostSuccessRatePercent()).isEqualTo(80.0);
    }

    @Test
    void seedExampleTwoHostsAt80AreNotOutliers() {
        OutlierDetector d =
                new OutlierDetector(config(OutlierSetting.MAX_EJECTION_PERCENT, 100), new SeededRandom(1), events);
        List<HostMonitor> h = hosts(d, 5);
        for (int i = 0; i < 3; i++) {
            mix(h.get(i), 999, 1, 3 * S);
        }
        mix(h.get(3), 800, 200, 3 * S);
        mix(h.get(4), 800, 200, 3 * S);
        d.tick(10 * S);
        assertThat(events.all).isEmpty();
        assertThat(d.stats().detectedTotal()).isZero();
    }

    @Test
    void aHostBelowTheRequestVolumeIsNotJudgedAndFourHostsAreTooFew() {
        // h4 has 99 requests, one short of success_rate_request_volume 100: only four hosts qualify, fewer
        // than success_rate_minimum_hosts 5, so success rate does not run at all
        OutlierDetector d =
                new OutlierDetector(config(OutlierSetting.MAX_EJECTION_PERCENT, 100), new SeededRandom(1), events);
        List<HostMonitor> h = hosts(d, 5);
        for (int i = 0; i < 4; i++) {
            respond(h.get(i), 100, 200, S);
        }
        mix(h.get(4), 50, 49, S);
        d.tick(10 * S);
        assertThat(events.all).isEmpty();

        // with one more request in the next interval it qualifies and is ejected
        for (int i = 0; i < 4; i++) {
            respond(h.get(i), 100, 200, 11 * S);
        }
        mix(h.get(4), 50, 50, 11 * S);
        d.tick(20 * S);
        assertThat(events.all).extracting(OutlierEvent::host).containsExactly("h4");
    }

    @Test
    void onlyTheIntervalJustEndedIsJudged() {
        // the bad interval [0, 10) is judged at 10 s; at 20 s the judged bucket is [10, 20), which is clean
        OutlierDetector d = new OutlierDetector(
                config(OutlierSetting.MAX_EJECTION_PERCENT, 100, OutlierSetting.ENFORCING_SUCCESS_RATE, 0),
                new SeededRandom(1),
                events);
        List<HostMonitor> h = hosts(d, 5);
        for (int i = 0; i < 4; i++) {
            respond(h.get(i), 200, 200, S);
        }
        mix(h.get(4), 100, 100, S);
        d.tick(10 * S);
        assertThat(events.all).extracting(OutlierEvent::action).containsExactly(EventAction.UNENFORCED);
        for (int i = 0; i < 5; i++) {
            respond(h.get(i), 200, 200, 10 * S); // at the tick's instant, after it: the next bucket
        }
        d.tick(20 * S);
        assertThat(events.all).hasSize(1);
        assertThat(h.get(4).successRate(Origin.EXTERNAL).judgedRequests()).isEqualTo(200);
        assertThat(h.get(4).successRate(Origin.EXTERNAL).judgedSuccessRatePercent())
                .isEqualTo(100.0);
    }

    @Test
    void successRateSkipsEjectedHosts() {
        // h4 is ejected by consecutive 5xx first; at the tick it is not among the judged hosts, so only
        // four hosts qualify and success rate does not run
        OutlierDetector d =
                new OutlierDetector(config(OutlierSetting.MAX_EJECTION_PERCENT, 100), new SeededRandom(1), events);
        List<HostMonitor> h = hosts(d, 5);
        for (int i = 0; i < 4; i++) {
            respond(h.get(i), 200, 200, S);
        }
        respond(h.get(4), 200, 500, S);
        d.tick(10 * S);
        assertThat(events.all).extracting(OutlierEvent::type).containsExactly(EjectionType.CONSECUTIVE_5XX);
        assertThat(d.stats().detected(EjectionType.SUCCESS_RATE)).isZero();
    }

    // ---- failure percentage ----

    private OutlierDetector failurePercentageOnly() {
        // consecutive detectors and success rate out of the way; failure percentage enforced
        return new OutlierDetector(
                config(
                        OutlierSetting.MAX_EJECTION_PERCENT,
                        100,
                        OutlierSetting.CONSECUTIVE_5XX,
                        100_000,
                        OutlierSetting.CONSECUTIVE_GATEWAY_FAILURE,
                        100_000,
                        OutlierSetting.SUCCESS_RATE_REQUEST_VOLUME,
                        1_000_000,
                        OutlierSetting.ENFORCING_FAILURE_PERCENTAGE,
                        100),
                new SeededRandom(1),
                events);
    }

    @Test
    void envoysFailurePercentageExample() {
        // h0..h2: 50 successes; h3: 50 + 250 failures = 83.33 % failure (< 85); h4: 50 + 300 = 85.71 % (>= 85)
        OutlierDetector d = failurePercentageOnly();
        List<HostMonitor> h = hosts(d, 5);
        for (HostMonitor m : h) {
            respond(m, 50, 200, S);
        }
        respond(h.get(3), 250, 503, S);
        respond(h.get(4), 300, 503, S);
        d.tick(10 * S);
        assertThat(events.all).hasSize(1);
        OutlierEvent e = events.last();
        assertThat(e.host()).isEqualTo("h4");
        assertThat(e.action()).isEqualTo(EventAction.EJECT);
        assertThat(e.type()).isEqualTo(EjectionType.FAILURE_PERCENTAGE);
        FailurePercentageEvidence ev = (FailurePercentageEvidence) e.evidence();
        assertThat(ev.hostFailurePercent()).isCloseTo(85.714, within(1e-3));
        assertThat(ev.hostRequests()).isEqualTo(350);
        assertThat(ev.thresholdPercent()).isEqualTo(85);
        assertThat(ev.hostsEvaluated()).isEqualTo(5);
        assertThat(d.stats().detected(EjectionType.FAILURE_PERCENTAGE)).isEqualTo(1);
        assertThat(d.stats().enforced(EjectionType.FAILURE_PERCENTAGE)).isEqualTo(1);
    }

    @Test
    void failurePercentageExactlyAtTheThresholdIsDetected() {
        // h4: 15 successes, 85 failures of 100 -> exactly 85 % -> detected; h3: 16 of 100 -> 84 % -> not
        OutlierDetector d = failurePercentageOnly();
        List<HostMonitor> h = hosts(d, 5);
        for (int i = 0; i < 3; i++) {
            respond(h.get(i), 100, 200, S);
        }
        respond(h.get(3), 16, 200, S);
        respond(h.get(3), 84, 500, S);
        respond(h.get(4), 15, 200, S);
        respond(h.get(4), 85, 500, S);
        d.tick(10 * S);
        assertThat(events.all).extracting(OutlierEvent::host).containsExactly("h4");
        assertThat(((FailurePercentageEvidence) events.last().evidence()).hostFailurePercent())
                .isEqualTo(85.0);
    }

    @Test
    void failurePercentageNeedsVolumeAndEnoughHosts() {
        // h4 fails everything but has 49 requests (volume 50): only four hosts qualify, fewer than 5
        OutlierDetector d = failurePercentageOnly();
        List<HostMonitor> h = hosts(d, 5);
        for (int i = 0; i < 4; i++) {
            respond(h.get(i), 50, 200, S);
        }
        respond(h.get(4), 49, 500, S);
        d.tick(10 * S);
        assertThat(events.all).isEmpty();

        // 50 requests qualify it
        for (int i = 0; i < 4; i++) {
            respond(h.get(i), 50, 200, 11 * S);
        }
        respond(h.get(4), 50, 500, 11 * S);
        d.tick(20 * S);
        assertThat(events.all).extracting(OutlierEvent::host).containsExactly("h4");
    }

    @Test
    void failurePercentageIsNotEnforcedByDefault() {
        // default enforcing_failure_percentage 0: detected and logged as unenforced
        OutlierDetector d = new OutlierDetector(
                config(
                        OutlierSetting.MAX_EJECTION_PERCENT,
                        100,
                        OutlierSetting.CONSECUTIVE_5XX,
                        100_000,
                        OutlierSetting.CONSECUTIVE_GATEWAY_FAILURE,
                        100_000,
                        OutlierSetting.SUCCESS_RATE_REQUEST_VOLUME,
                        1_000_000),
                new SeededRandom(1),
                events);
        List<HostMonitor> h = hosts(d, 5);
        for (int i = 0; i < 4; i++) {
            respond(h.get(i), 100, 200, S);
        }
        respond(h.get(4), 100, 500, S);
        d.tick(10 * S);
        assertThat(events.all)
                .extracting(OutlierEvent::action, OutlierEvent::type)
                .containsExactly(Tuple.tuple(EventAction.UNENFORCED, EjectionType.FAILURE_PERCENTAGE));
        assertThat(d.ejectedCount()).isZero();
    }

    @Test
    void aClusterWideFailureIsNoSuccessRateOutlierButEveryHostFailsThePercentage() {
        // every host at 10 % success: success rate finds nothing (no spread); failure percentage (90 % >= 85)
        // offers all six in host order, and the cap of 34 admits two (33.3 %), refusing the other four
        OutlierDetector d = new OutlierDetector(
                config(
                        OutlierSetting.MAX_EJECTION_PERCENT,
                        34,
                        OutlierSetting.CONSECUTIVE_5XX,
                        100_000,
                        OutlierSetting.CONSECUTIVE_GATEWAY_FAILURE,
                        100_000,
                        OutlierSetting.ENFORCING_FAILURE_PERCENTAGE,
                        100),
                new SeededRandom(1),
                events);
        List<HostMonitor> h = hosts(d, 6);
        for (HostMonitor m : h) {
            respond(m, 10, 200, S);
            respond(m, 90, 500, S);
        }
        d.tick(10 * S);
        assertThat(d.stats().detected(EjectionType.SUCCESS_RATE)).isZero();
        assertThat(events.all)
                .extracting(OutlierEvent::host, OutlierEvent::action)
                .containsExactly(
                        Tuple.tuple("h0", EventAction.EJECT),
                        Tuple.tuple("h1", EventAction.EJECT),
                        Tuple.tuple("h2", EventAction.OVERFLOW),
                        Tuple.tuple("h3", EventAction.OVERFLOW),
                        Tuple.tuple("h4", EventAction.OVERFLOW),
                        Tuple.tuple("h5", EventAction.OVERFLOW));
    }

    @Test
    void aHostEjectedBySuccessRateIsOfferedAgainByFailurePercentageAndLeaksTheGauge() {
        // h4 fails 90 %: success rate ejects it (rates 100 x4 and 10: mean 82, stdev 36, threshold 13.6); failure
        // percentage runs over the list built before that ejection (Envoy's processSuccessRateEjections), so h4 is
        // offered again and, cap 100 and enforcing 100, ejected a second time: active 2 for one host out
        OutlierDetector d = new OutlierDetector(
                config(
                        OutlierSetting.MAX_EJECTION_PERCENT,
                        100,
                        OutlierSetting.CONSECUTIVE_5XX,
                        100_000,
                        OutlierSetting.CONSECUTIVE_GATEWAY_FAILURE,
                        100_000,
                        OutlierSetting.ENFORCING_FAILURE_PERCENTAGE,
                        100,
                        OutlierSetting.FAILURE_PERCENTAGE_MINIMUM_HOSTS,
                        1),
                new SeededRandom(1),
                events);
        List<HostMonitor> h = hosts(d, 5);
        for (int i = 0; i < 4; i++) {
            respond(h.get(i), 100, 200, S);
        }
        respond(h.get(4), 10, 200, S);
        respond(h.get(4), 90, 500, S);
        d.tick(10 * S);
        assertThat(events.all)
                .extracting(OutlierEvent::action, OutlierEvent::type, OutlierEvent::alreadyEjected)
                .containsExactly(
                        Tuple.tuple(EventAction.EJECT, EjectionType.SUCCESS_RATE, false),
                        Tuple.tuple(EventAction.EJECT, EjectionType.FAILURE_PERCENTAGE, true));
        assertThat(((SuccessRateEvidence) events.all.get(0).evidence()).thresholdPercent())
                .isCloseTo(13.6, within(1e-9));
        // the second offer saw one host out already: (1+1)/5 = 40 % <= 100
        assertThat(events.last().cap().ejectedBefore()).isEqualTo(1);
        assertThat(((FailurePercentageEvidence) events.last().evidence()).hostsEvaluated())
                .isEqualTo(5);
        assertThat(d.stats().detected(EjectionType.FAILURE_PERCENTAGE)).isEqualTo(1);
        assertThat(d.stats().ejectionsActive()).isEqualTo(2);
        assertThat(h.get(4).numEjections()).isEqualTo(2);
        assertThat(h.get(4).multiplier()).isEqualTo(2);
        // out for min(30 s * 2, 300 s) = 60 s: back at the 70 s tick, and the gauge stays one too high
        for (long t = 20; t <= 60; t += 10) {
            d.tick(t * S);
        }
        assertThat(h.get(4).isEjected()).isTrue();
        d.tick(70 * S);
        assertThat(h.get(4).isEjected()).isFalse();
        assertThat(d.stats().ejectionsActive()).isEqualTo(1);
        assertThat(d.ejectedCount()).isEqualTo(1);
    }

    @Test
    void theFailurePercentageListCountsAHostSuccessRateJustEjected() {
        // fidelity case R1: h0 50 % of 200 (a success-rate outlier, not a failure-percentage one), h1..h4 100 % of
        // 200, h5 0 % of 60 (failure-percentage volume only). Both lists come from one pass before any ejection,
        // so failure percentage has 6 hosts >= its minimum 6 and ejects h5
        OutlierDetector d = new OutlierDetector(
                config(
                        OutlierSetting.MAX_EJECTION_PERCENT,
                        50,
                        OutlierSetting.CONSECUTIVE_5XX,
                        1000,
                        OutlierSetting.SUCCESS_RATE_REQUEST_VOLUME,
                        100,
                        OutlierSetting.SUCCESS_RATE_MINIMUM_HOSTS,
                        5,
                        OutlierSetting.FAILURE_PERCENTAGE_REQUEST_VOLUME,
                        50,
                        OutlierSetting.FAILURE_PERCENTAGE_MINIMUM_HOSTS,
                        6,
                        OutlierSetting.FAILURE_PERCENTAGE_THRESHOLD,
                        85,
                        OutlierSetting.ENFORCING_FAILURE_PERCENTAGE,
                        100),
                new SeededRandom(1),
                events);
        List<HostMonitor> h = hosts(d, 6);
        mix(h.get(0), 100, 100, 5 * S);
        for (int i = 1; i <= 4; i++) {
            respond(h.get(i), 200, 200, 5 * S);
        }
        respond(h.get(5), 60, 500, 5 * S);
        d.tick(10 * S);
        assertThat(events.all)
                .extracting(OutlierEvent::host, OutlierEvent::action, OutlierEvent::type)
                .containsExactly(
                        Tuple.tuple("h0", EventAction.EJECT, EjectionType.SUCCESS_RATE),
                        Tuple.tuple("h5", EventAction.EJECT, EjectionType.FAILURE_PERCENTAGE));
        SuccessRateEvidence sr = (SuccessRateEvidence) events.all.get(0).evidence();
        assertThat(sr.meanPercent()).isEqualTo(90.0);
        assertThat(sr.thresholdPercent()).isCloseTo(52.0, within(1e-9));
        assertThat(((FailurePercentageEvidence) events.last().evidence()).hostsEvaluated())
                .isEqualTo(6);
        assertThat(d.stats().ejectionsActive()).isEqualTo(2);
    }

    @Test
    void twoOutliersForOnePlaceCarryAnOrderNote() {
        // fidelity case R3a: h0 and h9 both 60 %, cap 10 % of 10 hosts admits one; the lab ejects h0 (list order),
        // Envoy whichever its hash map gives first
        OutlierDetector d = new OutlierDetector(
                config(OutlierSetting.MAX_EJECTION_PERCENT, 10, OutlierSetting.CONSECUTIVE_5XX, 1000),
                new SeededRandom(1),
                events);
        List<HostMonitor> h = hosts(d, 10);
        for (int i = 0; i < 10; i++) {
            if (i == 0 || i == 9) {
                mix(h.get(i), 60, 40, 5 * S);
            } else {
                respond(h.get(i), 100, 200, 5 * S);
            }
        }
        d.tick(10 * S);
        assertThat(events.all)
                .extracting(OutlierEvent::host, OutlierEvent::action)
                .containsExactly(Tuple.tuple("h0", EventAction.EJECT), Tuple.tuple("h9", EventAction.OVERFLOW));
        assertThat(events.all)
                .allSatisfy(e -> assertThat(e.orderNote().capContenders()).containsExactly("h0", "h9"));
    }

    @Test
    void bothDetectorsAreSkippedWhenTheClusterIsSmallerThanBothMinimums() {
        // four hosts < 5 (both minimums): nothing is judged even with minimums met by volume
        OutlierDetector d = new OutlierDetector(
                config(
                        OutlierSetting.MAX_EJECTION_PERCENT,
                        100,
                        OutlierSetting.CONSECUTIVE_5XX,
                        100_000,
                        OutlierSetting.CONSECUTIVE_GATEWAY_FAILURE,
                        100_000,
                        OutlierSetting.ENFORCING_FAILURE_PERCENTAGE,
                        100),
                new SeededRandom(1),
                events);
        List<HostMonitor> h = hosts(d, 4);
        for (int i = 0; i < 3; i++) {
            respond(h.get(i), 200, 200, S);
        }
        respond(h.get(3), 200, 500, S);
        d.tick(10 * S);
        assertThat(events.all).isEmpty();
    }
}
