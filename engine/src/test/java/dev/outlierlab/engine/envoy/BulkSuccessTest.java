package dev.outlierlab.engine.envoy;

import static dev.outlierlab.engine.envoy.Fixtures.S;
import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.SeededRandom;
import dev.outlierlab.engine.envoy.Fixtures.Events;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link HostMonitor#putSuccesses(long)} is exactly {@code n} single successes as the router reports them (a
 * connect success, then 200): over seeded random streams of failures of every kind, interleaved with stretches of
 * successes given one by one to one detector and in bulk to its twin, both detectors keep the same state after every
 * step (buckets, counters, ejections) and decide the same events, in split mode and without it.
 */
class BulkSuccessTest {
    private static final int[] CODES = {500, 502, 503, 504, 599};
    private static final RequestResult[] RESULTS = {
        RequestResult.LOCAL_ORIGIN_TIMEOUT,
        RequestResult.LOCAL_ORIGIN_CONNECT_FAILED,
        RequestResult.EXT_ORIGIN_REQUEST_FAILED
    };

    @Test
    void bulkSuccessesEqualSingleReports() {
        SplittableRandom random = new SplittableRandom(20);
        int stretches = 0;
        for (int round = 0; round < 300; round++) {
            boolean split = round % 2 == 0;
            OutlierDetectionConfig config = Fixtures.config(
                    OutlierSetting.MAX_EJECTION_PERCENT,
                    100,
                    OutlierSetting.SPLIT_EXTERNAL_LOCAL_ORIGIN_ERRORS,
                    split,
                    OutlierSetting.CONSECUTIVE_5XX,
                    1 + random.nextInt(6),
                    OutlierSetting.CONSECUTIVE_GATEWAY_FAILURE,
                    1 + random.nextInt(6),
                    OutlierSetting.ENFORCING_CONSECUTIVE_GATEWAY_FAILURE,
                    100,
                    OutlierSetting.CONSECUTIVE_LOCAL_ORIGIN_FAILURE,
                    1 + random.nextInt(6),
                    OutlierSetting.SUCCESS_RATE_MINIMUM_HOSTS,
                    2,
                    OutlierSetting.SUCCESS_RATE_REQUEST_VOLUME,
                    5,
                    OutlierSetting.FAILURE_PERCENTAGE_MINIMUM_HOSTS,
                    2,
                    OutlierSetting.FAILURE_PERCENTAGE_REQUEST_VOLUME,
                    5,
                    OutlierSetting.ENFORCING_FAILURE_PERCENTAGE,
                    100);
            EnvoyVersion version = round % 3 == 0 ? EnvoyVersion.parse("1.30") : EnvoyVersion.DEFAULT;
            Events singleEvents = new Events();
            Events bulkEvents = new Events();
            OutlierDetector single = new OutlierDetector(config, new SeededRandom(round), singleEvents, version);
            OutlierDetector bulk = new OutlierDetector(config, new SeededRandom(round), bulkEvents, version);
            int hosts = 2 + random.nextInt(4);
            List<HostMonitor> a = new ArrayList<>();
            List<HostMonitor> b = new ArrayList<>();
            for (int h = 0; h < hosts; h++) {
                a.add(single.addHost("h" + h));
                b.add(bulk.addHost("h" + h));
            }
            long t = 0;
            for (int step = 0; step < 60; step++) {
                t += random.nextInt(1_000_000_000);
                int h = random.nextInt(hosts);
                int kind = random.nextInt(4);
                if (kind == 0) {
                    long n = random.nextInt(4) == 0 ? 0 : 1 + random.nextInt(40);
                    for (long k = 0; k < n; k++) {
                        a.get(h).putResult(RequestResult.LOCAL_ORIGIN_CONNECT_SUCCESS, t);
                        a.get(h).putHttpResponseCode(200, t);
                    }
                    b.get(h).putSuccesses(n);
                    stretches++;
                } else if (kind == 1) {
                    int code = CODES[random.nextInt(CODES.length)];
                    a.get(h).putHttpResponseCode(code, t);
                    b.get(h).putHttpResponseCode(code, t);
                } else if (kind == 2) {
                    RequestResult r = RESULTS[random.nextInt(RESULTS.length)];
                    a.get(h).putResult(r, t);
                    b.get(h).putResult(r, t);
                } else {
                    long tick = (t / (10 * S) + 1) * 10 * S;
                    single.tick(tick);
                    bulk.tick(tick);
                    t = tick;
                }
                for (int k = 0; k < hosts; k++) {
                    assertThat(state(b.get(k)))
                            .as("round %d step %d host %d", round, step, k)
                            .isEqualTo(state(a.get(k)));
                }
            }
            assertThat(bulkEvents.all).isEqualTo(singleEvents.all);
            assertThat(bulk.stats().asMap()).isEqualTo(single.stats().asMap());
        }
        assertThat(stretches).isGreaterThan(3000);
    }

    @Test
    void noSuccessesChangeNothing() {
        Events events = new Events();
        OutlierDetector detector = new OutlierDetector(Fixtures.config(), new SeededRandom(1), events);
        HostMonitor host = detector.addHost("h");
        Fixtures.respond(host, 3, 503, S);
        host.putSuccesses(0);
        assertThat(host.consecutive5xx()).isEqualTo(3);
        assertThat(host.consecutiveGatewayFailure()).isEqualTo(3);
        host.putSuccesses(7);
        assertThat(host.consecutive5xx()).isZero();
        assertThat(host.successRate(Origin.EXTERNAL).currentRequests()).isEqualTo(10);
    }

    private static List<Object> state(HostMonitor m) {
        List<Object> s = new ArrayList<>();
        s.add(m.isEjected());
        s.add(m.consecutive5xx());
        s.add(m.consecutiveGatewayFailure());
        s.add(m.consecutiveLocalOriginFailure());
        s.add(m.numEjections());
        s.add(m.multiplier());
        for (Origin o : Origin.values()) {
            SuccessRateAccumulator acc = m.successRate(o);
            s.add(acc.currentRequests());
            s.add(acc.judgedRequests());
            s.add(acc.judgedSuccesses());
        }
        return s;
    }
}
