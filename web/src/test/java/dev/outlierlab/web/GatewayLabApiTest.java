package dev.outlierlab.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.outlierlab.config.scenario.GatewayComparisons;
import dev.outlierlab.config.scenario.GatewayScenarioWriter;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.report.GatewayResultJson;
import dev.outlierlab.sim.RunCancelledException;
import dev.outlierlab.sim.gateway.GatewayScenario;
import dev.outlierlab.sim.gateway.GatewaySimulation;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * The lab's API for {@code profile: gateway} scenarios, without HTTP: the answer is the CLI's gateway JSON
 * plus a timeline and series that agree with it, presets are the golden report's comparisons, and runs over
 * the limits are refused with the key and the figures.
 */
class GatewayLabApiTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final LabApi api = new LabApi(SimulationLimits.DEFAULT);

    private static GatewayComparisons.Comparison preset(String id) {
        return GatewayComparisons.all().stream()
                .filter(c -> c.id().equals(id))
                .findFirst()
                .orElseThrow();
    }

    private JsonNode run(GatewayScenario s) throws Exception {
        return JSON.readTree(api.run(JSON.writeValueAsString(GatewayScenarioWriter.toMap(s))));
    }

    @Test
    void aGatewayRunAnswersTheClisJsonWithATimelineAndSeries() throws Exception {
        GatewayScenario s = preset("two-one-dead").scenario();
        JsonNode answer = run(s);
        JsonNode cli = JSON.readTree(GatewayResultJson.toJson(GatewaySimulation.run(s)));
        for (String key : List.of("scenario", "summary", "events", "notes")) {
            assertThat(answer.get(key)).as(key).isEqualTo(cli.get(key));
        }
        // the hard trip: azure's third failure in a row at 30.006666666 s, out for 30 s, 7 times in all
        assertThat(answer.at("/summary/ejections/consecutive").asLong()).isEqualTo(7);
        assertThat(answer.at("/summary/failed_requests").asLong()).isEqualTo(21);
        JsonNode timeline = answer.get("timeline");
        assertThat(timeline).hasSize(7);
        JsonNode first = timeline.get(0);
        assertThat(first.get("endpoint").asText()).isEqualTo("azure");
        assertThat(first.get("process").asInt()).isZero();
        assertThat(first.get("state").asText()).isEqualTo("ejected");
        assertThat(first.get("reason").asText()).isEqualTo("consecutive");
        assertThat(first.get("start").asDouble()).isEqualTo(30.006666666);
        assertThat(first.get("end").asDouble()).isEqualTo(60.006666666);
        double out = 0;
        for (JsonNode iv : timeline) {
            out += iv.get("end").asDouble() - iv.get("start").asDouble();
        }
        assertThat(out)
                .isCloseTo(
                        answer.at("/summary/endpoints/azure/ejected_seconds_per_process/0")
                                .asDouble(),
                        Offset.offset(1e-6));
        JsonNode series = answer.get("series");
        assertThat(series.get("step").asDouble()).isEqualTo(1.0);
        assertThat(series.get("time")).hasSize(300);
        assertThat(sum(series.get("requests"))).isEqualTo(180_000);
        assertThat(sum(series.get("failed_requests"))).isEqualTo(21);
        assertThat(sum(series.at("/attempts/azure")))
                .isEqualTo(answer.at("/summary/endpoints/azure/attempts").asLong());
        assertThat(sum(series.at("/attempts/openai")))
                .isEqualTo(answer.at("/summary/endpoints/openai/attempts").asLong());
        assertThat(sum(series.at("/failed_attempts/azure")))
                .isEqualTo(answer.at("/summary/failed_attempts").asLong());
        // second 30: azure fails 3 attempts (1 in 3 of the requests each 1/600 s), then is ejected: openai takes the
        // rest
        assertThat(series.at("/failed_attempts/azure/30").asLong()).isEqualTo(3);
        assertThat(series.at("/attempts/openai/31").asLong()).isEqualTo(600);
        assertThat(sum(series.at("/stages/eject")))
                .isEqualTo(answer.at("/summary/eject_stages").asLong());
    }

    @Test
    void shadowShowsVirtualEjectionsWhereProdEjects() throws Exception {
        JsonNode prod = run(preset("six-one-bad").scenario());
        JsonNode shadow = run(preset("six-shadow").scenario());
        assertThat(shadow.get("timeline")).hasSize(prod.get("timeline").size()).hasSize(7);
        for (int i = 0; i < 7; i++) {
            assertThat(shadow.at("/timeline/" + i + "/state").asText()).isEqualTo("virtual");
            assertThat(prod.at("/timeline/" + i + "/state").asText()).isEqualTo("ejected");
        }
        assertThat(shadow.at("/timeline/0/start").asDouble())
                .isEqualTo(prod.at("/timeline/0/start").asDouble());
        assertThat(shadow.at("/timeline/0/start").asDouble()).isCloseTo(32.66, Offset.offset(0.001));
        assertThat(shadow.at("/events/0/action").asText()).isEqualTo("would_eject");
        // shadow changes no routing: the same attempts per second as mode off
        JsonNode off = run(preset("six-off").scenario());
        assertThat(shadow.at("/series/attempts")).isEqualTo(off.at("/series/attempts"));
        assertThat(sum(shadow.at("/series/stages/would_eject"))).isEqualTo(125_993);
        assertThat(sum(shadow.at("/series/failed_requests"))).isEqualTo(6_930);
        assertThat(sum(prod.at("/series/failed_requests"))).isEqualTo(98);
    }

    @Test
    void twoProcessesHaveTheirOwnTimelineRows() throws Exception {
        JsonNode answer = run(preset("six-two-processes").scenario());
        List<Double> firstPerProcess = new ArrayList<>(List.of(-1.0, -1.0));
        for (JsonNode iv : answer.get("timeline")) {
            int p = iv.get("process").asInt();
            if (firstPerProcess.get(p) < 0) {
                firstPerProcess.set(p, iv.get("start").asDouble());
            }
        }
        assertThat(answer.get("timeline")).hasSize(14);
        assertThat(firstPerProcess.get(0)).isNotEqualTo(firstPerProcess.get(1));
        assertThat(Math.min(firstPerProcess.get(0), firstPerProcess.get(1))).isCloseTo(32.562, Offset.offset(0.001));
    }

    @Test
    void settingsCarryTheGatewayDefaultsControlsAndThePresetsOfTheGoldenReport() throws Exception {
        JsonNode settings = JSON.readTree(api.settings()).get("gateway");
        assertThat(settings.get("defaults").toString())
                .isEqualTo(JSON.writeValueAsString(GatewayScenarioWriter.toMap(GatewayScenario.defaults())));
        assertThat(settings.at("/defaults/gateway/mode").asText()).isEqualTo("prod");
        List<String> paths = new ArrayList<>();
        settings.get("controls").forEach(c -> {
            paths.add(c.get("path").asText());
            assertThat(c.get("description").asText()).isNotBlank();
        });
        assertThat(paths)
                .contains(
                        "gateway.mode",
                        "gateway.window",
                        "gateway.bucket",
                        "gateway.min_requests",
                        "gateway.stdev_factor",
                        "gateway.peer_set",
                        "gateway.min_stdev",
                        "gateway.consecutive_failures",
                        "gateway.ejection_time",
                        "gateway.processes",
                        "routing.strategy",
                        "routing.weights",
                        "routing.fallbacks");
        JsonNode presets = settings.get("presets");
        assertThat(presets).hasSize(GatewayComparisons.all().size()).hasSize(14);
        assertThat(presets.get(1).get("id").asText()).isEqualTo("two-one-dead");
        assertThat(presets.get(1).at("/scenario/faults/0/error_rate").asDouble())
                .isEqualTo(100);
        assertThat(presets.get(1).at("/scenario/cluster/hosts").toString()).isEqualTo("[\"azure\",\"openai\"]");
    }

    @Test
    void aPartialGatewayScenarioIsFilledWithTheGatewayDefaults() throws Exception {
        JsonNode answer = JSON.readTree(api.run("{\"profile\": \"gateway\", \"gateway\": {\"mode\": \"shadow\"}}"));
        assertThat(answer.at("/scenario/gateway/window").asText()).isEqualTo("60s");
        assertThat(answer.at("/summary/would_eject_stages").asLong()).isEqualTo(125_993);
        JsonNode read = JSON.readTree(api.scenario("profile: gateway\nrouting: {strategy: ordered}\n", "gw.yaml"));
        assertThat(read.at("/scenario/profile").asText()).isEqualTo("gateway");
        assertThat(read.at("/scenario/routing/strategy").asText()).isEqualTo("ordered");
    }

    @Test
    void badGatewayInputNamesTheKeyAndLine() {
        assertThatThrownBy(() -> api.run("{\"profile\": \"gateway\",\n \"gateway\": {\"mode\": \"loud\"}}"))
                .hasMessageContaining("gateway.mode")
                .hasMessageStartingWith("request:2: ")
                .hasMessageContaining("off, shadow, prod");
        assertThatThrownBy(() -> api.run("{\"profile\": \"gateway\", \"outlier_detection\": {}}"))
                .hasMessageContaining("outlier_detection");
    }

    @Test
    void gatewayRunsOverTheLimitsAreRefusedWithTheirFigures() {
        assertThatThrownBy(() -> api.run(
                        "{\"profile\": \"gateway\", \"traffic\": {\"rps\": 50000}, \"routing\": {\"fallbacks\": 1}}"))
                .isInstanceOf(ApiException.class)
                .hasMessageStartingWith(
                        "routing.fallbacks: the simulation could make up to 30,000,000 attempts (15,000,000 "
                                + "requests x 2, 1 + fallbacks and at most one per endpoint), over the lab's limit of 20,000,000");
        assertThatThrownBy(() ->
                        api.run("{\"profile\": \"gateway\", \"gateway\": {\"bucket\": \"1ms\", \"processes\": 4}}"))
                .hasMessageStartingWith(
                        "gateway.window: the windows would keep 1,440,000 buckets (4 processes x 6 endpoints "
                                + "x 60,000 buckets of the window), over the lab's limit of 1,000,000");
        assertThatThrownBy(() -> api.run(
                        "{\"profile\": \"gateway\", \"gateway\": {\"processes\": 1024, \"ejection_time\": \"1s\"}}"))
                .hasMessageStartingWith(
                        "gateway.ejection_time: the simulation could log up to 3,698,688 decisions "
                                + "(1024 processes x 6 endpoints x 301 ejections each, and their returns), over the lab's limit of 200,000");
        assertThatThrownBy(() -> api.run("{\"profile\": \"gateway\", \"cluster\": {\"hosts\": 1000}}"))
                .hasMessageStartingWith(
                        "cluster.hosts: the simulation could score 180,000,000 endpoints (180,000 attempts, "
                                + "each judged against 1,000 endpoints), over the lab's limit of 100,000,000");
        assertThatThrownBy(() -> api.run("{\"profile\": \"gateway\", \"cluster\": {\"hosts\": 1001}}"))
                .hasMessageStartingWith("cluster.hosts: 1,001 endpoints is over the lab's limit of 1,000");
        assertThatThrownBy(() -> api.run("{\"profile\": \"gateway\", \"traffic\": {\"rps\": 100000}}"))
                .hasMessageStartingWith("traffic.rps: the simulation would send 30,000,000 requests");
    }

    @Test
    void theDeadlineStopsAGatewayRun() {
        GatewayScenario s = preset("six-one-bad").scenario();
        String body = GatewayScenarioWriter.toMap(s).toString();
        assertThatThrownBy(() -> api.run(JSON.writeValueAsString(GatewayScenarioWriter.toMap(s)), (done, total) -> {
                    throw new RunCancelledException("stopped at " + done + " of " + total);
                }))
                .isInstanceOf(RunCancelledException.class)
                .hasMessage("stopped at 0 of 180000");
        assertThat(body).contains("gateway");
    }

    @Test
    void aLabExportIsReadAsItsInputs() throws Exception {
        JsonNode answer = run(preset("two-one-dead").scenario());
        String export = "{\"tool\": \"outlier-lab\", \"profile\": \"gateway\", \"inputs\": " + answer.get("scenario")
                + ", \"summary\": " + answer.get("summary") + "}";
        ScenarioReader.Profiled read = ScenarioReader.readProfiled(export, "export.json", List.of());
        assertThat(read.gateway()).isEqualTo(preset("two-one-dead").scenario());
    }

    private static long sum(JsonNode values) {
        long total = 0;
        for (JsonNode v : values) {
            total += v.asLong();
        }
        return total;
    }
}
