package dev.outlierlab.config.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outlierlab.config.InputException;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code traffic.clients}: read, written back only when more than one, refused when impossible. */
class ClientsReaderTest {
    private static Scenario read(String yaml, String... sets) {
        return ScenarioReader.read(yaml, "s.yaml", List.of(sets)).scenario();
    }

    @Test
    void readsCallersAndWritesThemBackOnlyWhenMoreThanOne() {
        Scenario s = read("traffic:\n  rps: 600\n  clients: 50\n");
        assertThat(s.traffic().clients()).isEqualTo(50);
        assertThat(s.traffic().rps()).isEqualTo(600);
        assertThat(ScenarioWriter.toMap(s).get("traffic")).isEqualTo(Map.of("rps", 600L, "clients", 50));
        assertThat(read("", "traffic.clients=3").traffic().clients()).isEqualTo(3);
        assertThat(ScenarioWriter.toMap(read("")).get("traffic")).isEqualTo(Map.of("rps", 600L));
    }

    @Test
    void refusesNoCallerAFractionAndMoreCallersThanRequestsInASecond() {
        assertThatThrownBy(() -> read("traffic:\n  clients: 0\n"))
                .isInstanceOf(InputException.class)
                .hasMessage("s.yaml:2: traffic.clients: 0 is not allowed; expected a whole number from 1 to 10000");
        assertThatThrownBy(() -> read("traffic:\n  clients: 2.5\n"))
                .hasMessage("s.yaml:2: traffic.clients: 2.5 is not allowed; expected a whole number from 1 to 10000");
        assertThatThrownBy(() -> read("traffic:\n  rps: 40\n  clients: 50\n"))
                .hasMessage("s.yaml:3: traffic.clients: 50 is not allowed; expected a whole number of callers from 1 to"
                        + " 40 (at most traffic.rps, 40: every caller sends at least one request a second)");
        assertThatThrownBy(() -> read("cluster:\n  hosts: 100000\ntraffic:\n  rps: 10000\n  clients: 100\n"))
                .hasMessageContaining(
                        "traffic.clients: 100 is not allowed; expected at most 20 callers with 100000 hosts");
    }

    @Test
    void aGatewayScenarioTakesClientsAsItsProcesses() {
        String gateway = "profile: gateway\n";
        assertThat(ScenarioReader.readProfiled(gateway + "traffic:\n  clients: 4\n", "g.yaml", List.of())
                        .gateway()
                        .gateway()
                        .processes())
                .isEqualTo(4);
        assertThat(ScenarioReader.readProfiled(
                                gateway + "traffic:\n  clients: 3\ngateway:\n  processes: 3\n", "g.yaml", List.of())
                        .gateway()
                        .gateway()
                        .processes())
                .isEqualTo(3);
        assertThatThrownBy(() -> ScenarioReader.readProfiled(
                        gateway + "traffic:\n  clients: 3\ngateway:\n" + "  processes: 2\n", "g.yaml", List.of()))
                .hasMessageStartingWith("g.yaml:3: traffic.clients: 3 is not allowed; expected the same number as "
                        + "gateway.processes (2)");
    }
}
