package dev.outlierlab.engine.envoy;

import static dev.outlierlab.engine.envoy.Fixtures.S;
import static dev.outlierlab.engine.envoy.Fixtures.config;
import static dev.outlierlab.engine.envoy.Fixtures.respond;
import static dev.outlierlab.engine.envoy.Fixtures.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.outlierlab.engine.SeededRandom;
import dev.outlierlab.engine.envoy.Fixtures.Events;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.engine.envoy.event.SuccessRateEvidence;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Non-HTTP results ({@code putResult}): mapped to HTTP codes when origins are not split (Envoy's
 * resultToHttpCode), and fed to their own counters and success-rate bucket when
 * split_external_local_origin_errors is on.
 */
class LocalOriginTest {
    private final Events events = new Events();

    private OutlierDetector detector(boolean split, Object... overrides) {
        Object[] all = new Object[overrides.length + 4];
        all[0] = OutlierSetting.MAX_EJECTION_PERCENT;
        all[1] = 100;
        all[2] = OutlierSetting.SPLIT_EXTERNAL_LOCAL_ORIGIN_ERRORS;
        all[3] = split;
        System.arraycopy(overrides, 0, all, 4, overrides.length);
        return new OutlierDetector(config(all), new SeededRandom(5), events);
    }

    // ---- not split ----

    @Test
    void timeoutCountsAs504() {
        HostMonitor h = detector(false).addHost("h0");
        h.putResult(RequestResult.LOCAL_ORIGIN_TIMEOUT, S);
        assertThat(h.consecutive5xx()).isEqualTo(1);
        assertThat(h.consecutiveGatewayFailure()).isEqualTo(1);
        assertThat(h.successRate(Origin.EXTERNAL).currentRequests()).isEqualTo(1);
        assertThat(h.successRate(Origin.LOCAL).currentRequests()).isZero();
        assertThat(h.consecutiveLocalOriginFailure()).isZero();
    }

    @Test
    void connectFailureCountsAs503() {
        HostMonitor h = detector(false).addHost("h0");
        result(h, 2, RequestResult.LOCAL_ORIGIN_CONNECT_FAILED, S);
        assertThat(h.consecutive5xx()).isEqualTo(2);
        assertThat(h.consecutiveGatewayFailure()).isEqualTo(2);
    }

    @Test
    void externalFailureCountsAs500WhichResetsTheGatewayCount() {
        HostMonitor h = detector(false).addHost("h0");
        result(h, 2, RequestResult.LOCAL_ORIGIN_CONNECT_FAILED, S);
        h.putResult(RequestResult.EXT_ORIGIN_REQUEST_FAILED, S);
        assertThat(h.consecutive5xx()).isEqualTo(3);
        assertThat(h.consecutiveGatewayFailure()).isZero();
    }

    @Test
    void connectSuccessIsIgnoredAndConnectSuccessFinalIsA200() {
        HostMonitor h = detector(false).addHost("h0");
        result(h, 3, RequestResult.LOCAL_ORIGIN_CONNECT_FAILED, S);
        h.putResult(RequestResult.LOCAL_ORIGIN_CONNECT_SUCCESS, S);
        // not reported at all: counters and the bucket stay as they were
        assertThat(h.consecutive5xx()).isEqualTo(3);
        assertThat(h.consecutiveGatewayFailure()).isEqualTo(3);
        assertThat(h.successRate(Origin.EXTERNAL).currentRequests()).isEqualTo(3);
        h.putResult(RequestResult.LOCAL_ORIGIN_CONNECT_SUCCESS_FINAL, S);
        assertThat(h.consecutive5xx()).isZero();
        assertThat(h.consecutiveGatewayFailure()).isZero();
        assertThat(h.successRate(Origin.EXTERNAL).currentRequests()).isEqualTo(4);
        h.putResult(RequestResult.EXT_ORIGIN_REQUEST_SUCCESS, S);
        assertThat(h.successRate(Origin.EXTERNAL).currentRequests()).isEqualTo(5);
    }

    @Test
    void anExplicitCodeWinsOverTheMapping() {
        HostMonitor h = detector(false).addHost("h0");
        result(h, 2, RequestResult.LOCAL_ORIGIN_CONNECT_FAILED, S);
        // Envoy's TimeoutWithHttpCode: a timeout reported with 200 is a success
        h.putResult(RequestResult.LOCAL_ORIGIN_TIMEOUT, 200, S);
        assertThat(h.consecutive5xx()).isZero();
        // a connect success reported with 500 is a 5xx, and not a gateway failure
        h.putResult(RequestResult.LOCAL_ORIGIN_CONNECT_SUCCESS, 500, S);
        assertThat(h.consecutive5xx()).isEqualTo(1);
        assertThat(h.consecutiveGatewayFailure()).isZero();
        // a timeout reported with 500 counts as 500, not 504
        h.putResult(RequestResult.LOCAL_ORIGIN_TIMEOUT, 500, S);
        assertThat(h.consecutive5xx()).isEqualTo(2);
        assertThat(h.consecutiveGatewayFailure()).isZero();
    }

    @Test
    void fiveConnectFailuresEjectBy5xxWithAnUnenforcedGatewayDetection() {
        // Envoy's BasicFlowNonHttpCodesExternalOrigin: a connect success between connect failures does not
        // break the run, because it is not reported
        OutlierDetector d = detector(false);
        HostMonitor h = d.addHost("h0");
        d.addHost("h1");
        h.putResult(RequestResult.LOCAL_ORIGIN_CONNECT_FAILED, S);
        h.putResult(RequestResult.LOCAL_ORIGIN_CONNECT_SUCCESS, S);
        result(h, 3, RequestResult.LOCAL_ORIGIN_CONNECT_FAILED, S);
        assertThat(events.all).isEmpty();
        h.putResult(RequestResult.LOCAL_ORIGIN_CONNECT_FAILED, S);
        assertThat(events.all)
                .extracting(OutlierEvent::action, OutlierEvent::type)
                .containsExactly(
                        tuple(EventAction.UNENFORCED, EjectionType.CONSECUTIVE_GATEWAY_FAILURE),
                        tuple(EventAction.EJECT, EjectionType.CONSECUTIVE_5XX));
    }

    @Test
    void alternatingConnectSuccessWith200AndConnectFailureNeverEjects() {
        // Envoy's ConnectSuccessWithOptionalHTTP_OK
        OutlierDetector d = detector(false);
        HostMonitor h = d.addHost("h0");
        for (int i = 0; i < 100; i++) {
            h.putResult(RequestResult.LOCAL_ORIGIN_CONNECT_SUCCESS, 200, S);
            h.putResult(RequestResult.LOCAL_ORIGIN_CONNECT_FAILED, S);
        }
        assertThat(events.all).isEmpty();
        assertThat(h.successRate(Origin.EXTERNAL).currentRequests()).isEqualTo(200);
    }

    @Test
    void localOriginResultsDoNotTouchTheLocalCountersWhenNotSplit() {
        OutlierDetector d = detector(false);
        HostMonitor h = d.addHost("h0");
        result(h, 10, RequestResult.LOCAL_ORIGIN_TIMEOUT, S);
        assertThat(h.consecutiveLocalOriginFailure()).isZero();
        assertThat(d.stats().detected(EjectionType.CONSECUTIVE_LOCAL_ORIGIN_FAILURE))
                .isZero();
    }

    // ---- split ----

    @Test
    void splitLocalFailuresHaveTheirOwnCounterAndEject() {
        // Envoy's BasicFlowLocalOriginFailure and LargeNumberOfTimeouts
        OutlierDetector d = detector(true);
        HostMonitor h = d.addHost("h0");
        result(h, 4, RequestResult.LOCAL_ORIGIN_TIMEOUT, 0);
        assertThat(h.consecutiveLocalOriginFailure()).isEqualTo(4);
        assertThat(h.consecutive5xx()).isZero();
        assertThat(h.consecutiveGatewayFailure()).isZero();
        assertThat(h.successRate(Origin.LOCAL).currentRequests()).isEqualTo(4);
        assertThat(h.successRate(Origin.EXTERNAL).currentRequests()).isZero();
        h.putResult(RequestResult.LOCAL_ORIGIN_CONNECT_FAILED, 0);
        assertThat(events.all)
                .extracting(OutlierEvent::action, OutlierEvent::type)
                .containsExactly(tuple(EventAction.EJECT, EjectionType.CONSECUTIVE_LOCAL_ORIGIN_FAILURE));
        // ten more while ejected: no second detection
        result(h, 10, RequestResult.LOCAL_ORIGIN_TIMEOUT, S);
        assertThat(events.all).hasSize(1);
        // back at 30 s; five more eject again (multiplier 2 now: 60 s), back at 90 s
        d.tick(30 * S);
        result(h, 5, RequestResult.LOCAL_ORIGIN_CONNECT_FAILED, 30 * S);
        d.tick(40 * S);
        d.tick(80 * S);
        assertThat(h.isEjected()).isTrue();
        d.tick(90 * S);
        assertThat(h.isEjected()).isFalse();
        // four failures, a connect success, two failures: no ejection
        result(h, 4, RequestResult.LOCAL_ORIGIN_CONNECT_FAILED, 91 * S);
        h.putResult(RequestResult.LOCAL_ORIGIN_CONNECT_SUCCESS, 91 * S);
        result(h, 2, RequestResult.LOCAL_ORIGIN_CONNECT_FAILED, 91 * S);
        assertThat(h.isEjected()).isFalse();
        assertThat(d.stats().asMap())
                .containsEntry("ejections_enforced_total", 2L)
                .containsEntry("ejections_detected_consecutive_local_origin_failure", 2L)
                .containsEntry("ejections_enforced_consecutive_local_origin_failure", 2L)
                .containsEntry("ejections_detected_consecutive_5xx", 0L)
                .containsEntry("ejections_total", 0L);
    }

    @Test
    void splitIgnoresTheCodeOfALocalResult() {
        OutlierDetector d = detector(true);
        HostMonitor h = d.addHost("h0");
        h.putResult(RequestResult.LOCAL_ORIGIN_TIMEOUT, 200, S);
        assertThat(h.consecutiveLocalOriginFailure()).isEqualTo(1);
        assertThat(h.successRate(Origin.EXTERNAL).currentRequests()).isZero();
    }

    @Test
    void splitExternalResultsMapTo503And200PlusALocalSuccessUpToOnePointThirtyEight() {
        OutlierDetector d = new OutlierDetector(
                config(
                        OutlierSetting.MAX_EJECTION_PERCENT,
                        100,
                        OutlierSetting.SPLIT_EXTERNAL_LOCAL_ORIGIN_ERRORS,
                        true),
                new SeededRandom(5),
                events,
                EnvoyVersion.parse("1.38"));
        HostMonitor h = d.addHost("h0");
        result(h, 2, RequestResult.LOCAL_ORIGIN_CONNECT_FAILED, S);
        h.putResult(RequestResult.EXT_ORIGIN_REQUEST_FAILED, S);
        assertThat(h.consecutive5xx()).isEqualTo(1);
        assertThat(h.consecutiveGatewayFailure()).isEqualTo(1); // 503
        assertThat(h.consecutiveLocalOriginFailure()).isEqualTo(2); // untouched by an external failure
        h.putResult(RequestResult.EXT_ORIGIN_REQUEST_SUCCESS, S);
        assertThat(h.consecutive5xx()).isZero();
        assertThat(h.consecutiveLocalOriginFailure()).isZero();
        assertThat(h.successRate(Origin.EXTERNAL).currentRequests()).isEqualTo(2);
        assertThat(h.successRate(Origin.LOCAL).currentRequests()).isEqualTo(3);
    }

    @Test
    void fromOnePointThirtyNineSplitExternalResultsKeepTheirCodeAndAreNotLocalSuccesses() {
        // pull 39440's putResultWithLocalExternalSplit: ExtOriginRequestFailed reports its own code (503 when none),
        // ExtOriginRequestSuccess its code (200 when none) and no longer resets the local-origin counter
        OutlierDetector d = detector(true);
        HostMonitor h = d.addHost("h0");
        result(h, 2, RequestResult.LOCAL_ORIGIN_CONNECT_FAILED, S);
        h.putResult(RequestResult.EXT_ORIGIN_REQUEST_FAILED, 500, S);
        assertThat(h.consecutive5xx()).isEqualTo(1);
        assertThat(h.consecutiveGatewayFailure()).isZero(); // 500 is not a gateway failure
        h.putResult(RequestResult.EXT_ORIGIN_REQUEST_FAILED, S);
        assertThat(h.consecutiveGatewayFailure()).isEqualTo(1); // no code: 503
        h.putResult(RequestResult.EXT_ORIGIN_REQUEST_SUCCESS, S);
        assertThat(h.consecutive5xx()).isZero();
        assertThat(h.consecutiveLocalOriginFailure()).isEqualTo(2); // an external success leaves it alone now
        assertThat(h.successRate(Origin.EXTERNAL).currentRequests()).isEqualTo(3);
        assertThat(h.successRate(Origin.LOCAL).currentRequests()).isEqualTo(2); // the two connect failures only
        // three more connect failures complete a run of five: ejected by consecutive local-origin failure
        result(h, 3, RequestResult.LOCAL_ORIGIN_CONNECT_FAILED, S);
        assertThat(h.isEjected()).isTrue();
    }

    @Test
    void splitHttp5xxDoNotCountAsLocalFailures() {
        OutlierDetector d = detector(true);
        HostMonitor h = d.addHost("h0");
        respond(h, 4, 500, S);
        assertThat(h.consecutiveLocalOriginFailure()).isZero();
        assertThat(h.successRate(Origin.LOCAL).currentRequests()).isZero();
    }

    @Test
    void splitLocalOriginSuccessRateEjectsWithItsOwnNumbers() {
        // Envoy's BasicFlowSuccessRateLocalOrigin: four hosts with 200 connect successes; h4 with 200 successes
        // and 200 connect failures -> local rates 100 x4 and 50 -> mean 90, stdev 20, threshold 52.
        // Consecutive local-origin ejection is turned off (enforcing 0) so that success rate decides.
        OutlierDetector d = detector(true, OutlierSetting.ENFORCING_CONSECUTIVE_LOCAL_ORIGIN_FAILURE, 0);
        List<HostMonitor> h = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            h.add(d.addHost("h" + i));
            result(h.get(i), 200, RequestResult.LOCAL_ORIGIN_CONNECT_SUCCESS, S);
        }
        result(h.get(4), 200, RequestResult.LOCAL_ORIGIN_CONNECT_FAILED, S);
        // 200 failures in a row, not enforced: each detection resets the counter, so one every 5 -> 40
        // (Envoy's test expects the same 40 unenforced logs)
        assertThat(events.all).hasSize(40).allSatisfy(e -> {
            assertThat(e.action()).isEqualTo(EventAction.UNENFORCED);
            assertThat(e.type()).isEqualTo(EjectionType.CONSECUTIVE_LOCAL_ORIGIN_FAILURE);
        });
        d.tick(10 * S);
        assertThat(events.all).hasSize(41);
        OutlierEvent e = events.last();
        assertThat(e.action()).isEqualTo(EventAction.EJECT);
        assertThat(e.type()).isEqualTo(EjectionType.SUCCESS_RATE_LOCAL_ORIGIN);
        assertThat(e.host()).isEqualTo("h4");
        SuccessRateEvidence ev = (SuccessRateEvidence) e.evidence();
        assertThat(ev.hostSuccessRatePercent()).isEqualTo(50.0);
        assertThat(ev.meanPercent()).isEqualTo(90.0);
        assertThat(ev.thresholdPercent()).isEqualTo(52.0);
        // the external buckets saw nothing, so external success rate did not run
        assertThat(h.get(4).successRate(Origin.EXTERNAL).judgedRequests()).isZero();
        assertThat(d.stats().asMap())
                .containsEntry("ejections_detected_local_origin_success_rate", 1L)
                .containsEntry("ejections_enforced_local_origin_success_rate", 1L)
                .containsEntry("ejections_detected_success_rate", 0L)
                .containsEntry("ejections_success_rate", 1L) // Envoy's deprecated counter counts both origins
                .containsEntry("ejections_total", 0L); // ... but ejections_total only external SUCCESS_RATE
    }

    @Test
    void splitLocalOriginFailurePercentage() {
        // Envoy's BasicFlowFailurePercentageLocalOrigin with threshold 40: h4 fails 50 % of local attempts; local
        // success rate detects it (not enforced here), then local failure percentage ejects it
        OutlierDetector d = detector(
                true,
                OutlierSetting.ENFORCING_CONSECUTIVE_LOCAL_ORIGIN_FAILURE,
                0,
                OutlierSetting.ENFORCING_LOCAL_ORIGIN_SUCCESS_RATE,
                0,
                OutlierSetting.ENFORCING_FAILURE_PERCENTAGE_LOCAL_ORIGIN,
                100,
                OutlierSetting.FAILURE_PERCENTAGE_THRESHOLD,
                40);
        List<HostMonitor> h = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            h.add(d.addHost("h" + i));
            result(h.get(i), 200, RequestResult.LOCAL_ORIGIN_CONNECT_SUCCESS, S);
        }
        result(h.get(4), 200, RequestResult.LOCAL_ORIGIN_CONNECT_FAILED, S);
        d.tick(10 * S);
        // 40 unenforced consecutive local-origin detections come first (one per 5 failures)
        assertThat(events.all.subList(40, events.size()))
                .extracting(OutlierEvent::action, OutlierEvent::type)
                .containsExactly(
                        tuple(EventAction.UNENFORCED, EjectionType.SUCCESS_RATE_LOCAL_ORIGIN),
                        tuple(EventAction.EJECT, EjectionType.FAILURE_PERCENTAGE_LOCAL_ORIGIN));
        assertThat(d.stats().asMap())
                .containsEntry("ejections_detected_local_origin_failure_percentage", 1L)
                .containsEntry("ejections_enforced_local_origin_failure_percentage", 1L);
    }
}
