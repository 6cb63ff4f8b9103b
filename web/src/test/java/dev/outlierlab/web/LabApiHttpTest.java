package dev.outlierlab.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.report.ResultJson;
import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.Simulation;
import dev.outlierlab.sim.scenario.Scenario;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The API over real HTTP: a server on a free port, the JDK's client. */
class LabApiHttpTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final LabOnLoopback LAB = new LabOnLoopback();

    @Test
    void bindsLoopbackByDefault() {
        assertThat(LAB.server().address().getAddress().getHostAddress()).isEqualTo("127.0.0.1");
        assertThat(LAB.server().uri().toString())
                .isEqualTo("http://127.0.0.1:" + LAB.server().port() + "/");
        assertThat(LAB.server().port()).isPositive();
    }

    @Test
    void requestsAreHandledByABoundedPool() throws Exception {
        ThreadPoolExecutor pool = (ThreadPoolExecutor) LAB.server().executor();
        assertThat(pool.getMaximumPoolSize()).isEqualTo(LabServer.DEFAULT_THREADS);
        assertThat(pool.getQueue().remainingCapacity() + pool.getQueue().size()).isEqualTo(64);
        List<CompletableFuture<HttpResponse<String>>> runs = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            runs.add(LAB.client()
                    .sendAsync(
                            HttpRequest.newBuilder(LAB.server().uri().resolve("/api/run"))
                                    .POST(HttpRequest.BodyPublishers.ofString("{\"seed\": " + i + "}"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString()));
        }
        for (var run : runs) {
            assertThat(run.get(60, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        }
        assertThat(pool.getLargestPoolSize()).isLessThanOrEqualTo(128);
    }

    @Test
    void runMatchesTheSimulationFigures() throws Exception {
        HttpResponse<String> r = post("/api/run", "{\"outlier_detection\": {\"max_ejection_percent\": 34}}");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json; charset=utf-8");
        JsonNode got = JSON.readTree(r.body());

        Scenario s = Scenario.defaults();
        s = s.withOutlierDetection(s.outlierDetection().toBuilder()
                .set(OutlierSetting.MAX_EJECTION_PERCENT, 34)
                .build());
        JsonNode want = JSON.readTree(ResultJson.toJson(Simulation.run(s, RunOptions.CHARTS), true));
        JsonNode hinges = ((ObjectNode) got).remove("hinges");
        assertThat(got).isEqualTo(want);
        // what the answer hinges on: one detector, success rate runs, and the other pattern asked for separately
        assertThat(hinges.get(0).get("text").asText()).startsWith("one detector sees all traffic");
        assertThat(hinges.get(1).get("text").asText()).startsWith("runs: the detector sees about 6,000 requests");
        assertThat(hinges.get(3).get("label").asText()).isEqualTo("pattern");
        JsonNode compared = JSON.readTree(post("/api/hinges", "{\"outlier_detection\": {\"max_ejection_percent\": 34}}")
                        .body())
                .get("hinges");
        assertThat(compared.get(3).get("text").asText())
                .startsWith("failing at random instead of evenly changes the " + "decisions: ")
                .contains(" instead of 3 ejections (first at 40 s), ")
                .endsWith("; see outlier-lab run SCENARIO --set faults[0].pattern=random");
        JsonNode many = JSON.readTree(post(
                        "/api/run",
                        "{\"traffic\": {\"clients\": 50}, \"faults\": [{\"hosts\": 1, "
                                + "\"start\": \"30s\", \"end\": \"240s\", \"error_rate\": 30}], "
                                + "\"outlier_detection\": {\"max_ejection_percent\": 34}}")
                .body());
        assertThat(many.at("/summary/clients").asInt()).isEqualTo(50);
        assertThat(many.get("hinges").get(1).get("text").asText())
                .startsWith(
                        "can never run: each caller sends about " + "120 requests per 10 s interval, 20 to each host");
        assertThat(many.get("events").get(0).has("client")).isTrue();
        assertThat(got.at("/summary/ejections_enforced").asLong()).isEqualTo(3);
        assertThat(got.at("/summary/failed_during_fault").asLong()).isEqualTo(990);
        assertThat(got.get("series").get("failed").size()).isEqualTo(300);
        assertThat(got.get("intervals").size()).isPositive();
    }

    @Test
    void emptyObjectRunsTheDefaults() throws Exception {
        JsonNode got = JSON.readTree(post("/api/run", "{}").body());
        assertThat(got.at("/summary/failed").asLong()).isEqualTo(6_930);
        assertThat(got.at("/summary/ejections_detected").asLong()).isEqualTo(21);
        assertThat(got.at("/summary/ejections_overflow").asLong()).isEqualTo(21);
        assertThat(got.at("/events/0/explanation").asText()).startsWith("40 s: host-0 succeeded");
    }

    @Test
    void malformedJsonIs400NamingIt() throws Exception {
        HttpResponse<String> unclosed = post("/api/run", "{\"traffic\": {\"rps\": 600}");
        assertRefused(unclosed, "malformed JSON at line 1, column 25", "opened at line 1, column 1");
        assertThat(unclosed.body()).doesNotContain("REDACTED", "Source");
        assertRefused(post("/api/run", "[1, 2]"), "malformed JSON", "JSON object");
        assertRefused(post("/api/run", ""), "malformed JSON", "empty");
        assertRefused(post("/api/run", "{} trailing"), "malformed JSON");
    }

    @Test
    void bodyOver64KiBIs400NamingTheLimit() throws Exception {
        String big = "{\"name\": \"" + "x".repeat(70 * 1024) + "\"}";
        assertRefused(post("/api/run", big), "64 KiB");
    }

    @Test
    void invalidValueIs400WithTheScenarioMessage() throws Exception {
        assertRefused(post("/api/run", "{\"traffic\": {\"rps\": -5}}"), "traffic.rps", "-5");
        assertRefused(
                post("/api/run", "{\"outlier_detection\": {\"max_ejection_percent\": 120}}"),
                "outlier_detection.max_ejection_percent",
                "120");
        assertRefused(post("/api/run", "{\"colour\": \"red\"}"), "colour");
    }

    @Test
    void simulationOverTheLimitIs400NamingIt() throws Exception {
        assertRefused(post("/api/run", "{\"traffic\": {\"rps\": 100000}}"), "30,000,000 requests", "20,000,000");
        assertRefused(post("/api/run", "{\"cluster\": {\"hosts\": 5000}}"), "cluster.hosts", "1,000 hosts");
        assertRefused(
                post("/api/run", "{\"cluster\": {\"hosts\": 1000}, \"outlier_detection\": {\"interval\": \"0.1s\"}}"),
                "host evaluations",
                "1,000,000");
        assertRefused(
                post(
                        "/api/run",
                        "{\"traffic\": {\"rps\": 50000}, \"faults\": [{\"hosts\": 6, \"error_rate\": 100}],"
                                + " \"outlier_detection\": {\"consecutive_5xx\": 1}}"),
                "detector decisions",
                "200,000");
    }

    @Test
    void scenarioFileYamlBecomesCanonicalJson() throws Exception {
        String yaml = "cluster:\n  hosts: 10\ntraffic:\n  rps: 1000\noutlier_detection:\n  interval: 5s\n";
        HttpResponse<String> r = post("/api/scenario?name=ten.yaml", yaml);
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode s = JSON.readTree(r.body()).get("scenario");
        assertThat(s.at("/cluster/hosts").asInt()).isEqualTo(10);
        assertThat(s.at("/traffic/rps").asInt()).isEqualTo(1000);
        assertThat(s.at("/outlier_detection/interval").asText()).isEqualTo("5s");
        assertThat(s.at("/outlier_detection/max_ejection_percent").asInt()).isEqualTo(10);
        assertThat(s.at("/faults/0/error_rate").asInt()).isEqualTo(33);

        assertRefused(post("/api/scenario?name=bad.yaml", "traffic:\n  rps: fast\n"), "bad.yaml:2", "traffic.rps");
    }

    @Test
    void settingsDescribeEveryControlAndField() throws Exception {
        HttpResponse<String> r = get("/api/settings");
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode s = JSON.readTree(r.body());
        assertThat(s.at("/limits/max_body_bytes").asInt()).isEqualTo(65_536);
        assertThat(s.at("/defaults/outlier_detection/max_ejection_percent").asInt())
                .isEqualTo(10);
        // every setting but detect_degraded_hosts, which none of the web lab's faults can trigger
        assertThat(s.get("outlier_detection").size()).isEqualTo((int) Arrays.stream(OutlierSetting.values())
                .filter(o -> !o.newerThanBundledApi())
                .count());
        assertThat(s.get("controls").findValuesAsText("id"))
                .contains(
                        "hosts",
                        "faulty_hosts",
                        "error_rate",
                        "rps",
                        "fault_start",
                        "fault_end",
                        "duration",
                        "max_ejection_percent",
                        "always_eject_one_host",
                        "success_rate_on",
                        "consecutive_5xx",
                        "consecutive_5xx_on",
                        "failure_percentage_on",
                        "failure_percentage_threshold",
                        "interval",
                        "base_ejection_time",
                        "max_ejection_time",
                        "panic_threshold");
        for (JsonNode c : s.get("controls")) {
            assertThat(c.get("label").asText()).as("label of %s", c.get("id")).isNotBlank();
            assertThat(c.get("description").asText())
                    .as("description of %s", c.get("id"))
                    .isNotBlank();
        }
    }

    @Test
    void servesThePageAndUPlotFromTheClasspath() throws Exception {
        HttpResponse<String> page = get("/");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
        assertThat(page.body()).contains("outlier-lab");
        HttpResponse<String> uplot = get("/webjars/uplot/dist/uPlot.iife.min.js");
        assertThat(uplot.statusCode()).isEqualTo(200);
        assertThat(uplot.body()).contains("uPlot");
        assertThat(get("/webjars/uplot/dist/uPlot.min.css").statusCode()).isEqualTo(200);
        assertThat(get("/app.js").statusCode()).isEqualTo(200);
        assertThat(get("/nothing-here.js").statusCode()).isEqualTo(404);
        // an encoded dot segment is ambiguous (RFC 3986 section 6.2.2.2): the server refuses it before the handler
        assertThat(get("/%2e%2e/%2e%2e/pom.xml").statusCode()).isEqualTo(400);
        assertThat(get("/dev/outlierlab/web/LabServer.class").statusCode()).isEqualTo(404);
    }

    @Test
    void wrongMethodAndUnknownApiAreRefused() throws Exception {
        assertThat(get("/api/run").statusCode()).isEqualTo(405);
        assertThat(JSON.readTree(get("/api/run").body()).get("error").asText()).contains("use POST");
        HttpResponse<String> unknown = get("/api/nothing");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(unknown.body()).contains("no such API");
    }

    private static void assertRefused(HttpResponse<String> r, String... mentions) throws Exception {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        JsonNode body = JSON.readTree(r.body());
        assertThat(body.get("error").asText()).contains(mentions);
        assertThat(get("/api/settings").statusCode())
                .as("the server still answers")
                .isEqualTo(200);
        assertThat(post("/api/run", "{\"duration\": \"60s\"}").statusCode()).isEqualTo(200);
    }

    private static HttpResponse<String> post(String path, String body) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(LAB.server().uri().resolve(path))
                .timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        return LAB.client().send(req, HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> get(String path) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create(LAB.server().uri() + path.substring(1)))
                .timeout(Duration.ofSeconds(60))
                .GET()
                .build();
        return LAB.client().send(req, HttpResponse.BodyHandlers.ofString());
    }
}
