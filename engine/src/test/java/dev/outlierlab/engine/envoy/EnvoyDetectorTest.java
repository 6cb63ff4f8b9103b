package dev.outlierlab.engine.envoy;

import static dev.outlierlab.engine.envoy.Fixtures.S;
import static dev.outlierlab.engine.envoy.Fixtures.uncapped;
import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.EjectionListener;
import dev.outlierlab.engine.Outcome;
import dev.outlierlab.engine.ScheduledWork;
import dev.outlierlab.engine.SeededRandom;
import dev.outlierlab.engine.envoy.Fixtures.Events;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Envoy's detector behind the profile contract decides exactly what the detector driven directly decides:
 * same events, same numbers, same moments; ticks at k * interval up to the last one; resets are connect
 * failures as in Envoy's router.
 */
class EnvoyDetectorTest {
    private static final List<String> HOSTS = List.of("a", "b", "c", "d", "e", "f");

    @Test
    void sameEventsAsTheDetectorDrivenDirectlyOnSeededRandomTraffic() {
        for (long seed = 1; seed <= 40; seed++) {
            OutlierDetectionConfig config = uncapped(
                    OutlierSetting.INTERVAL,
                    2 * S,
                    OutlierSetting.SUCCESS_RATE_REQUEST_VOLUME,
                    20,
                    OutlierSetting.CONSECUTIVE_5XX,
                    4);
            Events direct = new Events();
            OutlierDetector raw = new OutlierDetector(config, new SeededRandom(seed), direct);
            List<HostMonitor> monitors = new ArrayList<>();
            HOSTS.forEach(h -> monitors.add(raw.addHost(h)));
            Events wrapped = new Events();
            EnvoyDetector contract = new EnvoyDetector(config, new SeededRandom(seed), HOSTS, wrapped, 60 * S);
            Random traffic = new Random(seed);
            long nextTick = 2 * S;
            for (long t = 0; t < 60 * S; t += 5_000_000) {
                while (nextTick <= t) {
                    raw.tick(nextTick);
                    nextTick += 2 * S;
                }
                contract.runDue(t);
                int host = traffic.nextInt(HOSTS.size());
                boolean fails = traffic.nextInt(100) < (host == 0 ? 40 : 3);
                int code = fails ? 503 : 200;
                monitors.get(host).putHttpResponseCode(code, t);
                contract.record(host, code, t);
            }
            while (nextTick <= 60 * S) {
                raw.tick(nextTick);
                nextTick += 2 * S;
            }
            contract.runDue(60 * S);
            assertThat(wrapped.all).isNotEmpty().isEqualTo(direct.all);
            assertThat(contract.nextDueNanos()).isEqualTo(ScheduledWork.NEVER);
        }
    }

    @Test
    void ticksRunAtMultiplesOfTheIntervalUpToTheLastTick() {
        Events events = new Events();
        EnvoyDetector d = new EnvoyDetector(uncapped(), new SeededRandom(1), List.of("a"), events, 25 * S);
        assertThat(d.nextDueNanos()).isEqualTo(10 * S);
        d.runDue(10 * S - 1);
        assertThat(d.nextDueNanos()).isEqualTo(10 * S);
        d.runDue(22 * S);
        assertThat(d.nextDueNanos()).isEqualTo(ScheduledWork.NEVER);
    }

    @Test
    void ejectionListenersHearEjectionsAndReturnsByEndpointIndex() {
        Events events = new Events();
        EnvoyDetector d = new EnvoyDetector(uncapped(), new SeededRandom(1), List.of("a", "b"), events, 100 * S);
        List<String> heard = new ArrayList<>();
        d.addEjectionListener(new EjectionListener() {
            @Override
            public void onEjected(int endpoint, long nowNanos) {
                heard.add("eject " + endpoint + " at " + nowNanos / S);
            }

            @Override
            public void onReturned(int endpoint, long nowNanos) {
                heard.add("return " + endpoint + " at " + nowNanos / S);
            }
        });
        for (int i = 0; i < 5; i++) {
            d.record(1, 500, S);
        }
        assertThat(d.isEjected(1)).isTrue();
        assertThat(d.isEjected(0)).isFalse();
        d.runDue(40 * S);
        assertThat(d.isEjected(1)).isFalse();
        assertThat(heard).containsExactly("eject 1 at 1", "return 1 at 40");
    }

    @Test
    void resetCountsAsAConnectFailureAndConnectSuccessIsOnlyASignal() {
        Events events = new Events();
        EnvoyDetector split = new EnvoyDetector(
                uncapped(OutlierSetting.SPLIT_EXTERNAL_LOCAL_ORIGIN_ERRORS, true),
                new SeededRandom(1),
                List.of("a"),
                events,
                100 * S);
        split.record(0, Outcome.RESET, S);
        split.record(0, Outcome.TIMEOUT, S);
        assertThat(split.monitor(0).consecutiveLocalOriginFailure()).isEqualTo(2);
        split.record(0, Outcome.CONNECT_SUCCESS, S);
        assertThat(split.monitor(0).consecutiveLocalOriginFailure()).isZero();
        assertThat(split.monitor(0).successRate(Origin.EXTERNAL).currentRequests())
                .isZero();

        EnvoyDetector plain = new EnvoyDetector(uncapped(), new SeededRandom(1), List.of("a"), events, 100 * S);
        plain.record(0, Outcome.RESET, S);
        plain.record(0, Outcome.CONNECT_SUCCESS, S);
        assertThat(plain.monitor(0).consecutiveGatewayFailure()).isEqualTo(1);
        assertThat(plain.monitor(0).successRate(Origin.EXTERNAL).currentRequests())
                .isEqualTo(1);
    }
}
