package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sweep}, {@code export} and {@code tune} take every input {@code run} takes ({@link InputOptions}): each
 * input kind gives, run by run, the figures {@code run} gives for it.
 */
class SharedInputsTest {
    private static final String DR = "../docs/examples/reviews-destination-rule.yaml";
    private static final String ENVOY = "../docs/examples/search-cluster.yaml";
    private static final String GATEWAY = "../docs/examples/gateway-two-providers.yaml";
    private static final String SERVICE_CONFIG = "../docs/examples/grpc-service-config.json";
    private static final String SUITE = "../docs/examples/tune-suite.yaml";

    @TempDir
    Path dir;

    /** The sweep's runs, each checked against {@code run} with the same input and the varied value as a --set. */
    private static List<JsonNode> sweepEqualsRuns(List<String> input, String key, String... values) {
        List<String> sweep = new ArrayList<>(List.of("sweep"));
        sweep.addAll(input);
        sweep.addAll(List.of("--vary", key + "=" + String.join(",", values), "--format", "json"));
        CliRunner.Outcome swept = CliRunner.run(sweep.toArray(String[]::new));
        assertThat(swept.exit()).as(swept.err()).isZero();
        List<JsonNode> summaries = new ArrayList<>();
        for (int i = 0; i < values.length; i++) {
            List<String> run = new ArrayList<>(List.of("run"));
            run.addAll(input);
            run.addAll(List.of("--set", key + "=" + values[i], "--format", "json"));
            CliRunner.Outcome one = CliRunner.run(run.toArray(String[]::new));
            assertThat(one.exit()).as(one.err()).isZero();
            JsonNode row = swept.json().get("runs").get(i);
            assertThat(row.get("summary"))
                    .as("%s, %s=%s", input, key, values[i])
                    .isEqualTo(one.json().get("summary"));
            summaries.add(row.get("summary"));
        }
        return summaries;
    }

    @Test
    void runTakesHostsRpsAndClientsAsTheirScenarioKeys() {
        CliRunner.Outcome flags =
                CliRunner.run("run", "--hosts", "10", "--rps", "1000", "--clients", "2", "--format", "json");
        CliRunner.Outcome sets = CliRunner.run(
                "run",
                "--set",
                "cluster.hosts=10",
                "--set",
                "traffic.rps=1000",
                "--set",
                "traffic.clients=2",
                "--format",
                "json");
        assertThat(flags.exit()).as(flags.err()).isZero();
        assertThat(flags.json().at("/scenario/cluster/hosts").asInt()).isEqualTo(10);
        assertThat(flags.json().at("/scenario/traffic/rps").asInt()).isEqualTo(1000);
        assertThat(flags.json().get("summary")).isEqualTo(sets.json().get("summary"));
        assertThat(flags.json().at("/summary/requests").asLong()).isEqualTo(300_000);
        // a --set wins over the flag, as it does over --clients
        CliRunner.Outcome both = CliRunner.run("run", "--hosts", "10", "--set", "cluster.hosts=7", "--format", "json");
        assertThat(both.json().at("/scenario/cluster/hosts").asInt()).isEqualTo(7);
        CliRunner.run("run", "--rps", "0").assertRejected("--rps: 0 is not allowed", "from 1 to 1000000000");
        CliRunner.run("run", "--hosts", "0").assertRejected("--hosts: 0 is not allowed");
        CliRunner.run("run", "--cluster", "search")
                .assertRejected("--cluster, --port, --subset and --controller "
                        + "choose from a configuration file: add --envoy FILE or --istio FILE");
    }

    @Test
    void sweepTakesAnIstioRuleAnEnvoyClusterAndTheFlags() {
        List<JsonNode> istio = sweepEqualsRuns(
                List.of("--istio", DR, "--hosts", "6"), "outlier_detection.max_ejection_percent", "10", "34");
        // Istio's DestinationRule turns success rate off (enforcing 0): 21 detections, none ejected; the 10 % cap
        // refuses them before enforcement is asked, 34 % lets enforcement say no
        assertThat(istio).extracting(s -> s.get("ejections_detected").asInt()).containsExactly(21, 21);
        assertThat(istio).extracting(s -> s.get("ejections_overflow").asInt()).containsExactly(21, 0);
        assertThat(istio).extracting(s -> s.get("ejections_unenforced").asInt()).containsExactly(0, 21);
        assertThat(istio).extracting(s -> s.get("ejections_enforced").asInt()).containsExactly(0, 0);
        List<JsonNode> envoy = sweepEqualsRuns(List.of("--envoy", ENVOY), "faults[0].error_rate", "33", "100");
        assertThat(envoy).extracting(s -> s.get("requests").asLong()).containsExactly(180_000L, 180_000L);
        List<JsonNode> flags = sweepEqualsRuns(
                List.of("--hosts", "10", "--rps", "1000", "--clients", "2"),
                "outlier_detection.max_ejection_percent",
                "10",
                "34");
        assertThat(flags).extracting(s -> s.get("requests").asLong()).containsExactly(300_000L, 300_000L);
        assertThat(flags).extracting(s -> s.get("ejections_enforced").asInt()).containsExactly(6, 6);
        sweepEqualsRuns(List.of("--example", "overload-cap-100"), "seed", "1", "2");
    }

    @Test
    void sweepTakesAGrpcServiceConfigAndAGatewayScenario() {
        List<JsonNode> grpc =
                sweepEqualsRuns(List.of("--service-config", SERVICE_CONFIG), "faults[0].error_rate", "33", "100");
        assertThat(grpc).extracting(s -> s.get("ejections_enforced").asInt()).containsExactly(3, 3);
        assertThat(grpc.get(1).get("failed").asLong()).isEqualTo(3000);
        List<JsonNode> gateway = sweepEqualsRuns(List.of(GATEWAY), "gateway.mode", "prod", "shadow");
        assertThat(gateway).hasSize(2);
        CliRunner.run("sweep", "--service-config", SERVICE_CONFIG, "--vary", "outlier_detection.interval=5s,10s")
                .assertRejected("--vary outlier_detection.interval: --service-config", "fixes gRPC's settings");
        CliRunner.run("sweep", GATEWAY, "--istio", DR, "--hosts", "6", "--vary", "seed=1,2")
                .assertRejected("this scenario's profile is gateway");
        CliRunner.run("sweep", "--service-config", SERVICE_CONFIG, "--engine", "flink", "--vary", "seed=1,2")
                .assertRejected("--engine flink sweeps scenario files and --set only");
    }

    @Test
    void exportWritesWhatRunSimulatesFromEachInput() throws IOException {
        // an Istio rule, exported as the Envoy cluster istiod sends, runs as the rule does
        CliRunner.Outcome exported = CliRunner.run("export", "--istio", DR, "--hosts", "6");
        assertThat(exported.exit()).as(exported.err()).isZero();
        assertThat(exported.out())
                .contains(
                        "healthy_panic_threshold:\n    value: 0",
                        "enforcing_success_rate: 0",
                        "max_ejection_percent: 100",
                        "lb_policy: LEAST_REQUEST",
                        "# Not written here: the route's retries",
                        "#     num_retries: 2");
        Path cluster = Files.writeString(dir.resolve("cluster.yaml"), exported.out());
        JsonNode viaEnvoy = CliRunner.run("run", "--envoy", cluster.toString(), "--format", "json")
                .json();
        // the exported cluster carries istiod's LEAST_REQUEST but not its route retries (a route's, said in a
        // comment): the rule runs the same without them
        JsonNode viaIstio = CliRunner.run(
                        "run", "--istio", DR, "--hosts", "6", "--set", "traffic.retries=none", "--format", "json")
                .json();
        assertThat(viaEnvoy.get("summary")).isEqualTo(viaIstio.get("summary"));
        // an Envoy cluster as a scenario, and a gateway scenario with its defaults filled in, run the same
        for (List<String> input :
                List.of(List.of("--envoy", ENVOY), List.of(GATEWAY), List.of("--hosts", "10", "--clients", "2"))) {
            List<String> args = new ArrayList<>(List.of("export", "--to", "scenario"));
            args.addAll(input);
            CliRunner.Outcome scenario = CliRunner.run(args.toArray(String[]::new));
            assertThat(scenario.exit()).as(scenario.err()).isZero();
            Path file = Files.writeString(dir.resolve("scenario.json"), scenario.out());
            List<String> run = new ArrayList<>(List.of("run"));
            run.addAll(input);
            run.addAll(List.of("--format", "json"));
            assertThat(CliRunner.run("run", file.toString(), "--format", "json")
                            .json()
                            .get("summary"))
                    .as("%s", input)
                    .isEqualTo(CliRunner.run(run.toArray(String[]::new)).json().get("summary"));
        }
    }

    @Test
    void exportSaysWhatTheOldEnvoyFlagBecame() {
        CliRunner.run("export", "--envoy").assertRejected("export's output format is now --to envoy (the default)");
        CliRunner.run("export", "--envoy", "--set", "outlier_detection.max_ejection_percent=34")
                .assertRejected("export's output format is now --to envoy");
        CliRunner.run("export", "--envoy", "../docs/examples/one-host-failing-30.yaml")
                .assertRejected(
                        "a scenario, not Envoy configuration",
                        "use: export ../docs/examples/one-host-failing-30.yaml --to envoy");
        CliRunner.run("export", GATEWAY).assertRejected("--to envoy: a profile: gateway scenario has no Envoy cluster");
        CliRunner.run("export", "--service-config", SERVICE_CONFIG).assertRejected("export: gRPC's settings");
        CliRunner.run("export", "--to", "istio").assertRejected("--to");
        CliRunner.run("run", "--envoy").assertRejected("--envoy: missing FILE");
    }

    @Test
    void tuneTakesAnIstioRuleAndAScenarioAsRunDoes() {
        String[] common = {"--rps", "300", "--suite", SUITE, "--seeds", "2", "--format", "json"};
        JsonNode istio = tune(List.of("--istio", DR, "--hosts", "6"), common);
        JsonNode from = tune(List.of("--from", DR, "--hosts", "6"), common);
        assertThat(istio).isEqualTo(from);
        assertThat(istio.at("/request/target").asText()).isEqualTo("istio");
        assertThat(istio.at("/request/hosts").asInt()).isEqualTo(6);
        assertThat(istio.at("/current/label").asText())
                .isEqualTo("consecutive5xxErrors=5 interval=10s baseEjectionTime=30s maxEjectionPercent=100");
        JsonNode envoy = tune(List.of("--envoy", ENVOY), common);
        assertThat(envoy).isEqualTo(tune(List.of("--from", ENVOY), common));
        assertThat(envoy.at("/request/target").asText()).isEqualTo("envoy");
        CliRunner.run("tune", "--from", DR, "--istio", DR, "--hosts", "6", "--rps", "300")
                .assertRejected("--from " + DR + " and run's inputs", "give one");
        CliRunner.run("tune", GATEWAY, "--rps", "300")
                .assertRejected("a gateway-profile scenario", "--from FILE --target gateway");
        CliRunner.run("tune", "--service-config", SERVICE_CONFIG, "--hosts", "6", "--rps", "300")
                .assertRejected("with --from FILE --target grpc");
    }

    private static JsonNode tune(List<String> input, String... common) {
        List<String> args = new ArrayList<>(List.of("tune"));
        args.addAll(input);
        args.addAll(List.of(common));
        CliRunner.Outcome o = CliRunner.run(args.toArray(String[]::new));
        assertThat(o.exit()).as(o.err()).isZero();
        return o.json();
    }
}
