package dev.outlierlab.sim.nginx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.nginx.NextUpstream;
import dev.outlierlab.engine.nginx.NginxServer;
import dev.outlierlab.engine.nginx.NginxUpstreamConfig;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.FaultPattern;
import dev.outlierlab.sim.scenario.FaultResult;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.scenario.TrafficSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What nginx's retries make the clients wait: two servers, 10 requests a second for 60 s (600 requests, the round
 * robin alternating while both are in), the first server failing every request.
 */
class NginxRetryWaitTest {
    static final long S = Durations.SECOND;
    static final List<String> HOSTS = List.of("10.0.0.1:8080", "10.0.0.2:8080");

    static NginxUpstreamConfig upstream(int maxFails, int mask) {
        return new NginxUpstreamConfig(
                "backend",
                List.of(
                        new NginxServer(HOSTS.get(0), 1, maxFails, 10, false, false),
                        new NginxServer(HOSTS.get(1), 1, maxFails, 10, false, false)),
                new NextUpstream(mask, 0),
                1,
                false);
    }

    static Scenario failing(FaultResult result, int status, long latencyNanos) {
        FaultSpec fault = FaultSpec.builder()
                .hosts(List.of(HOSTS.get(0)))
                .window(0, 60 * S)
                .errorRatePpm(1_000_000)
                .status(status)
                .result(result)
                .latencyNanos(latencyNanos)
                .pattern(FaultPattern.EVEN)
                .build();
        return Scenario.builder()
                .name("wait")
                .durationNanos(60 * S)
                .seed(1)
                .cluster(new ClusterSpec(HOSTS, 0))
                .traffic(new TrafficSpec(10))
                .faults(List.of(fault))
                .build();
    }

    static final int ERROR_TIMEOUT = NextUpstream.ERROR | NextUpstream.TIMEOUT;

    @Test
    void aServerNeverTakenOutMakesEveryRequestThatTriesItFirstWaitItsTimeout() {
        NginxRunResult r = NginxSimulation.run(failing(FaultResult.TIMEOUT, 504, 0), upstream(0, ERROR_TIMEOUT), 5 * S);
        // every other request goes to the first server first, times out after 5 s and is answered by the second
        assertThat(r.clientErrors()).isZero();
        assertThat(r.attempts()).containsExactly(300, 600);
        assertThat(r.delayedRequests()).isEqualTo(300);
        assertThat(r.delayNanos()).isEqualTo(300 * 5 * S);
        // nginx's default proxy_read_timeout: 60 s a request
        NginxRunResult byDefault =
                NginxSimulation.run(failing(FaultResult.TIMEOUT, 504, 0), upstream(0, ERROR_TIMEOUT));
        assertThat(byDefault.delayNanos()).isEqualTo(300 * 60 * S);
    }

    @Test
    void aServerTakenOutAtItsFirstTimeoutDelaysOnlyTheRequestThatFoundItAndEachProbe() {
        NginxRunResult r = NginxSimulation.run(failing(FaultResult.TIMEOUT, 504, 0), upstream(1, ERROR_TIMEOUT), 5 * S);
        // out at 0 s until second 11 (checked 0 + fail_timeout 10 + 1), its probe then fails again: at 0, 11, 22, 33,
        // 44 and 55 s, one request each
        assertThat(r.ejections()).isEqualTo(6);
        assertThat(r.attempts()[0]).isEqualTo(6);
        assertThat(r.delayedRequests()).isEqualTo(6);
        assertThat(r.delayNanos()).isEqualTo(6 * 5 * S);
        assertThat(r.clientErrors()).isZero();
    }

    @Test
    void aRefusedConnectionIsRetriedAtOnceAndA5xxWaitsTheFaultsLatency() {
        NginxRunResult refused =
                NginxSimulation.run(failing(FaultResult.CONNECT_FAILED, 503, 0), upstream(0, ERROR_TIMEOUT), 5 * S);
        assertThat(refused.attempts()).containsExactly(300, 600);
        assertThat(refused.delayedRequests()).isZero();
        assertThat(refused.delayNanos()).isZero();
        NginxRunResult slow503 = NginxSimulation.run(
                failing(null, 503, 2 * S), upstream(0, ERROR_TIMEOUT | NextUpstream.HTTP_503), 5 * S);
        assertThat(slow503.delayedRequests()).isEqualTo(300);
        assertThat(slow503.delayNanos()).isEqualTo(300 * 2 * S);
        // not retried: the 503 reaches its client, a failed request rather than a delayed one
        NginxRunResult answered = NginxSimulation.run(failing(null, 503, 2 * S), upstream(0, ERROR_TIMEOUT), 5 * S);
        assertThat(answered.clientErrors()).isEqualTo(300);
        assertThat(answered.delayedRequests()).isZero();
    }
}
