package dev.outlierlab.config.caddy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.caddy.CaddyPassiveConfig;
import dev.outlierlab.sim.caddy.CaddySimulation;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.FaultResult;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.scenario.TrafficSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An upstream that accepts the connection and never answers, one of two at 10 requests a second for a minute,
 * through a Caddyfile's {@code reverse_proxy} with and without the http transport's {@code response_header_timeout}.
 */
class CaddyHangingUpstreamTest {
    static final long S = Durations.SECOND;
    static final long MS = Durations.MILLISECOND;
    static final List<String> HOSTS = List.of("10.0.0.1:8080", "10.0.0.2:8080");

    static Scenario hanging() {
        FaultSpec hangs = FaultSpec.builder()
                .hosts(List.of(HOSTS.get(0)))
                .window(0, 600 * S)
                .errorRatePpm(1_000_000)
                .status(504)
                .result(FaultResult.TIMEOUT)
                .build();
        return Scenario.builder()
                .name("hanging")
                .durationNanos(60 * S)
                .seed(1)
                .cluster(new ClusterSpec(HOSTS, 0))
                .traffic(new TrafficSpec(10))
                .faults(List.of(hangs))
                .build();
    }

    static CaddyPassiveConfig caddy(String lines) {
        return CaddyConfigReader.readText(
                        ":80 {\n\treverse_proxy 10.0.0.1:8080 10.0.0.2:8080 {\n\t\tlb_policy round_robin\n"
                                + "\t\tfail_duration 10s\n\t\tmax_fails 3\n" + lines + "\t}\n}\n",
                        "Caddyfile")
                .config();
    }

    @Test
    void withCaddysDefaultsAHangingUpstreamHoldsHalfTheRequestsAndIsNeverTakenOut() {
        // no response_header_timeout: the round trip never returns, so it is neither counted nor tried again, even
        // with lb_try_duration set
        var r = CaddySimulation.run(hanging(), caddy("\t\tlb_try_duration 5s\n"));
        assertThat(r.ejections(0)).isZero();
        assertThat(r.events()).isEmpty();
        assertThat(r.attempts()).containsExactly(300, 300);
        assertThat(r.heldRequests()).isEqualTo(300);
        assertThat(r.clientErrors()).isEqualTo(300);
        assertThat(r.retries()).isZero();
        assertThat(r.slowRequests()).isZero();
    }

    @Test
    void withResponseHeaderTimeoutTheHangingUpstreamIsTakenOutAndItsRequestsRetriedAfterTheTimeoutAndTheInterval() {
        var r = CaddySimulation.run(
                hanging(),
                caddy("\t\tlb_try_duration 5s\n\t\ttransport http {\n\t\t\tresponse_header_timeout 2s\n" + "\t\t}\n"));
        assertThat(r.heldRequests()).isZero();
        // its tries sent at 0.1, 0.2 and 0.3 s fail, and are counted, at 2.1, 2.2 and 2.3 s: max_fails 3 reached; the
        // tries sent until then keep it out for 10 s after they fail, then 2.2 s of new tries take it out again
        assertThat(r.events().get(0).timeNanos()).isEqualTo(2300 * MS);
        assertThat(r.events().get(1).timeNanos()).isEqualTo(14_000 * MS);
        assertThat(r.events().get(2).timeNanos()).isEqualTo(16_200 * MS);
        assertThat(r.ejections(0)).isEqualTo(5);
        assertThat(r.attempts()).containsExactly(110, 600);
        // every try of the hanging upstream is retried, once, on the other
        assertThat(r.retries()).isEqualTo(110);
        assertThat(r.clientErrors()).isZero();
        // each retried request waited the 2 s timeout and the 250 ms lb_try_interval
        assertThat(r.slowRequests()).isEqualTo(110);
        assertThat(r.slowWaitNanos()).isEqualTo(110 * 2250 * MS);
    }

    @Test
    void aTimeoutLongerThanLbTryDurationLeavesNoRetry() {
        // tryAgain: 6 s have passed when the try fails, past lb_try_duration 5s: the client's 504, counted once
        var r = CaddySimulation.run(
                hanging(),
                caddy("\t\tlb_try_duration 5s\n\t\ttransport http {\n\t\t\tresponse_header_timeout 6s\n" + "\t\t}\n"));
        assertThat(r.retries()).isZero();
        assertThat(r.slowRequests()).isZero();
        assertThat(r.clientErrors()).isEqualTo(r.attempts()[0]);
        assertThat(r.ejections(0)).isPositive();
    }
}
