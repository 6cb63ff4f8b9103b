package dev.outlierlab.sim.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outlierlab.sim.RunCancelledException;
import dev.outlierlab.sim.RunWatcher;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A gateway run tells its watcher of its progress every 2^20 requests, and a watcher can stop it. */
class GatewayProgressTest {
    @Test
    void theWatcherHearsEveryMillionRequestsAndTheRunIsUnchanged() {
        GatewayScenario s =
                GatewayScenarios.endpoints(2).rps(7000).fault(1, 33, 30, 240).build();
        List<String> calls = new ArrayList<>();
        GatewayRunResult watched =
                GatewaySimulation.run(s, GatewayProgress.of((done, total) -> calls.add(done + "/" + total), s));
        assertThat(calls).containsExactly("0/2100000", "1048576/2100000", "2097152/2100000");
        assertThat(watched.summary()).isEqualTo(GatewaySimulation.run(s).summary());
        assertThat(GatewayProgress.of(RunWatcher.NONE, s)).isSameAs(GatewayObserver.NONE);
    }

    @Test
    void aWatcherStopsTheRun() {
        GatewayScenario s = GatewayScenarios.endpoints(2).rps(7000).build();
        List<Long> seen = new ArrayList<>();
        assertThatThrownBy(() -> GatewaySimulation.run(
                        s,
                        GatewayProgress.of(
                                (done, total) -> {
                                    seen.add(done);
                                    if (done > 0) {
                                        throw new RunCancelledException("stopped");
                                    }
                                },
                                s)))
                .isInstanceOf(RunCancelledException.class)
                .hasMessage("stopped");
        assertThat(seen).containsExactly(0L, 1_048_576L);
    }
}
