package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.sim.WorkEstimate;
import dev.outlierlab.sim.gateway.GatewayScenario;
import dev.outlierlab.sim.gateway.GatewayWorkEstimate;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The work estimate of gateway runs and sweeps: a year of the two-provider example is refused with its
 * estimate (exit 2) and allowed with {@code --yes} (checked on the estimate, not run); Envoy and gateway work
 * add up in a sweep.
 */
class GatewayWorkCommandTest {
    private static final String EXAMPLE = "../docs/examples/gateway-two-providers.yaml";

    @Test
    void aYearOfTheGatewayExampleIsRefusedWithItsEstimate() {
        // 600 rps x 31,536,000 s; no fallbacks, so one attempt a request; (requests + attempts) x 1.2 for 2 endpoints
        CliRunner.run("run", EXAMPLE, "--set", "duration=8760h")
                .assertRejected(
                        "this run is estimated at 38 min of work (18,921,600,000 simulated gateway requests making at most "
                                + "18,921,600,000 attempts, 45,411,840,000 attempt-equivalents at 20 million a second), over "
                                + "the 60 s allowed without asking; shorten duration, lower traffic.rps, the endpoints or "
                                + "routing.fallbacks, or add --yes to run it anyway");
        CliRunner.run("sweep", EXAMPLE, "--set", "duration=2000h", "--vary", "gateway.mode=shadow,prod")
                .assertRejected(
                        "this sweep of 2 runs is estimated at 18 min of work (8,640,000,000 simulated gateway "
                                + "requests",
                        "--yes");
    }

    @Test
    void aGatewayRunUnderAMinuteIsNotAsked() {
        CliRunner.Outcome o = CliRunner.run("run", EXAMPLE);
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(o.err()).as("no progress off a terminal").isEmpty();
    }

    @Test
    void yesAllowsTheYearLongRun() throws IOException {
        GatewayScenario year = ScenarioReader.readProfiled(
                        Files.readString(Path.of(EXAMPLE)), "example", List.of("duration=8760h"))
                .gateway();
        GatewayWorkEstimate estimate = GatewayWorkEstimate.of(year);
        assertThat(WorkOptions.seconds(estimate)).isEqualTo(2270.592);
        WorkOptions asking = new WorkOptions();
        assertThatThrownBy(() -> asking.check(new WorkEstimate(0, 0, 0), estimate, "this run"))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("estimated at 38 min");
        WorkOptions allowed = new WorkOptions();
        allowed.yes = true;
        allowed.check(new WorkEstimate(0, 0, 0), estimate, "this run");
    }

    @Test
    void envoyAndGatewayWorkAddUpInASweep() {
        WorkEstimate envoy = new WorkEstimate(640_000_000L, 0, 0); // 40 s at 16 million a second
        GatewayWorkEstimate gateway = new GatewayWorkEstimate(200_000_000L, 200_000_000L, 600_000_000L); // 30 s
        WorkOptions asking = new WorkOptions();
        asking.check(envoy, GatewayWorkEstimate.NONE, "this sweep");
        asking.check(new WorkEstimate(0, 0, 0), gateway, "this sweep");
        assertThatThrownBy(() -> asking.check(envoy, gateway, "this sweep of 2 runs"))
                .hasMessageContaining("estimated at 70 s of work (640,000,000 simulated requests")
                .hasMessageContaining("; 200,000,000 simulated gateway requests");
        assertThat(WorkOptions.progressUnits(gateway)).as("30 s of Envoy work").isEqualTo(480_000_000L);
    }
}
