package dev.outlierlab.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.config.caddy.CaddyConfigReader;
import dev.outlierlab.config.haproxy.HaproxyConfigReader;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.caddy.CaddyPassiveConfig;
import dev.outlierlab.engine.haproxy.HaproxyServer;
import dev.outlierlab.sim.caddy.CaddySimulation;
import dev.outlierlab.sim.haproxy.HaproxySimulation;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.FaultResult;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.HealthCheckFailure;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.scenario.TrafficSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/** HAProxy's and Caddy's surprises, each run in the lab on a configuration read from its own file format. */
class ProxySurprisesTest {
    static final long S = Durations.SECOND;
    static final List<String> HOSTS = List.of("10.0.0.1:8080", "10.0.0.2:8080");

    static Scenario scenario(long seconds, int rps, FaultSpec... faults) {
        return Scenario.builder()
                .name("proxy")
                .durationNanos(seconds * S)
                .seed(1)
                .cluster(new ClusterSpec(HOSTS, 0))
                .traffic(new TrafficSpec(rps))
                .faults(List.of(faults))
                .build();
    }

    static FaultSpec always(int status, FaultResult result, boolean failsChecks) {
        return FaultSpec.builder()
                .hosts(List.of(HOSTS.get(0)))
                .window(0, 600 * S)
                .errorRatePpm(1_000_000)
                .status(status)
                .result(result)
                .healthCheckFailure(failsChecks ? HealthCheckFailure.STATUS : null)
                .build();
    }

    static List<HaproxyServer> haproxy(String options) {
        return HaproxyConfigReader.readText(
                        "backend be\n  option httpchk GET /health\n  server a 10.0.0.1:8080 " + options
                                + "\n  server b 10.0.0.2:8080 check\n",
                        "haproxy.cfg",
                        null)
                .servers();
    }

    static CaddyPassiveConfig caddy(String lines) {
        return CaddyConfigReader.readText(
                        ":80 {\n\treverse_proxy 10.0.0.1:8080 10.0.0.2:8080 {\n" + lines + "\t}\n}\n", "Caddyfile")
                .config();
    }

    @Test
    void haproxyObserveWithoutCheckNeverActs() {
        var r = HaproxySimulation.run(
                scenario(60, 20, always(503, null, false)), haproxy("observe layer7 error-limit 2 on-error mark-down"));
        assertThat(r.downs(0)).isZero();
        assertThat(r.clientErrors()).isEqualTo(600);
    }

    @Test
    void haproxyDefaultsWithAPassingHealthEndpointNeverTakeTheServerDown() {
        // 5 errors a second to a: fewer than error-limit 10 x fall 3 between two checks 2 s apart
        var r = HaproxySimulation.run(scenario(60, 10, always(503, null, false)), haproxy("check observe layer7"));
        assertThat(r.trips()).isEqualTo(30);
        assertThat(r.downs(0)).isZero();
    }

    @Test
    void haproxyMarkDownFlapsWhileTheHealthEndpointAnswersAndStaysDownWhenItSharesTheFault() {
        var flaps = HaproxySimulation.run(
                scenario(60, 20, always(503, null, false)),
                haproxy("check observe layer7 error-limit 10 on-error mark-down"));
        assertThat(flaps.downs(0)).isGreaterThanOrEqualTo(10);
        var shared = HaproxySimulation.run(
                scenario(60, 20, always(503, null, true)),
                haproxy("check observe layer7 error-limit 10 on-error mark-down"));
        assertThat(shared.downs(0)).isEqualTo(1);
    }

    @Test
    void caddyIgnores5xxWithoutUnhealthyStatusAndMaxFailsDefaultsToOne() {
        var ignored = CaddySimulation.run(
                scenario(60, 10, always(503, null, false)),
                caddy("\t\tlb_policy round_robin\n\t\tfail_duration 10s\n"));
        assertThat(ignored.ejections(0)).isZero();
        assertThat(ignored.clientErrors()).isEqualTo(300);
        var counted = CaddySimulation.run(
                scenario(60, 10, always(503, null, false)),
                caddy("\t\tlb_policy round_robin\n\t\tfail_duration 10s\n\t\tunhealthy_status 5xx\n"));
        assertThat(counted.ejections(0)).isEqualTo(6); // one 503 out for 10 s, six times a minute
        assertThat(counted.clientErrors()).isEqualTo(6);
    }

    @Test
    void caddyDialErrorsReachTheClientWithoutLbTryDurationAndADeadHostTakesABurstEveryFailDuration() {
        FaultSpec dead = always(503, FaultResult.CONNECT_FAILED, false);
        var plain = CaddySimulation.run(
                scenario(60, 10, dead), caddy("\t\tlb_policy first\n\t\tfail_duration 10s\n\t\tmax_fails 3\n"));
        assertThat(plain.clientErrors()).isEqualTo(18); // bursts of 3 at 0, 10, ... 50 s
        var retried = CaddySimulation.run(
                scenario(60, 10, dead),
                caddy("\t\tlb_policy first\n\t\tfail_duration 10s\n\t\tmax_fails 3\n\t\tlb_try_duration 5s\n"));
        assertThat(retried.clientErrors()).isZero();
    }
}
