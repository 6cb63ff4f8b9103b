package dev.outlierlab.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.outlierlab.config.grpc.GrpcSettings;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.report.GrpcResultJson;
import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.grpc.GrpcProfile;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The gRPC profile and the comparison of profiles over real HTTP (a server on a free port, the JDK's client): the
 * seed's default scenario under {@code profile: grpc} ejects host-0 at 40, 90 and 170 s and returns it at 80, 160
 * and 270 s with 990 failed requests, where Envoy ejects nothing and 6,930 fail; the answer equals the CLI's JSON
 * with the charts added; bad values are one 400 naming the key.
 */
class GrpcLabApiHttpTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final LabOnLoopback LAB = new LabOnLoopback();

    private static HttpResponse<String> post(String path, String body) throws Exception {
        return LAB.client()
                .send(
                        HttpRequest.newBuilder(LAB.server().uri().resolve(path))
                                .header("Content-Type", "application/json")
                                .timeout(Duration.ofSeconds(60))
                                .POST(HttpRequest.BodyPublishers.ofString(body))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
    }

    private static List<String> times(JsonNode events, String action) {
        List<String> out = new ArrayList<>();
        for (JsonNode e : events) {
            if (e.get("action").asText().equals(action)) {
                out.add(e.get("host").asText() + "@" + e.get("time").asDouble());
            }
        }
        return out;
    }

    @Test
    void theDefaultScenarioUnderGrpcEjectsHost0ThreeTimes() throws Exception {
        HttpResponse<String> r = post("/api/run", "{\"profile\": \"grpc\"}");
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode got = JSON.readTree(r.body());
        assertThat(got.get("profile").asText()).isEqualTo("grpc");
        assertThat(times(got.get("events"), "eject")).containsExactly("host-0@40.0", "host-0@90.0", "host-0@170.0");
        assertThat(times(got.get("events"), "uneject")).containsExactly("host-0@80.0", "host-0@160.0", "host-0@270.0");
        assertThat(got.at("/summary/failed").asLong()).isEqualTo(990);
        assertThat(got.at("/summary/requests").asLong()).isEqualTo(180_000);
        assertThat(got.at("/grpc/origin").asText()).isEqualTo("outlier_detection, as gRPC's xDS client maps it");
        assertThat(got.at("/grpc/max_ejection_percent").asInt()).isEqualTo(10);
        assertThat(got.at("/events/0/explanation").asText())
                .startsWith("40 s: host-0 succeeded 67.0 % < required 71.1 %");
        // the scenario comes back as a profile: grpc file with its grpc block written out
        assertThat(got.at("/scenario/profile").asText()).isEqualTo("grpc");
        assertThat(got.at("/scenario/grpc/success_rate_ejection/stdev_factor").asInt())
                .isEqualTo(1900);
        // grpc-java's xDS client turns failure percentage on when Envoy's enforcing_failure_percentage is unset
        // (threshold 85, enforcement 100); a host failing 33 % never reaches it, so the ejections stay success rate's
        assertThat(got.at("/scenario/grpc/failure_percentage_ejection/threshold")
                        .asInt())
                .isEqualTo(85);
        assertThat(got.at("/scenario/grpc/failure_percentage_ejection/enforcement_percentage")
                        .asInt())
                .isEqualTo(100);
        assertThat(got.at("/scenario/grpc").has("origin")).isFalse();
        // the charts: per-second series and one interval per sweep, host-0 at 67 % against the required 71.1 % at 40 s
        assertThat(got.at("/series/time")).hasSize(300);
        JsonNode at40 = null;
        for (JsonNode iv : got.get("intervals")) {
            if (iv.get("time").asDouble() == 40.0) {
                at40 = iv;
            }
        }
        assertThat(got.get("intervals")).hasSize(30);
        assertThat(at40).isNotNull();
        assertThat(at40.get("success_rate_ran").asBoolean()).isTrue();
        assertThat(at40.get("threshold").asDouble()).isBetween(71.05, 71.15);
        assertThat(at40.at("/hosts/0/host").asText()).isEqualTo("host-0");
        assertThat(at40.at("/hosts/0/success_rate").asDouble()).isBetween(66.9, 67.1);

        // apart from the charts, the answer is run --profile grpc --format json's
        ScenarioReader.Profiled p = ScenarioReader.readProfiledWithoutAliases("{\"profile\": \"grpc\"}", "request");
        GrpcSettings settings = p.grpc();
        JsonNode cli = JSON.readTree(GrpcResultJson.toJson(
                new GrpcProfile(settings.config()).run(p.envoy().scenario(), RunOptions.DEFAULT), settings));
        for (String key : List.of("grpc", "summary", "stats", "events")) {
            assertThat(got.get(key)).as(key).isEqualTo(cli.get(key));
        }
    }

    @Test
    void theScenarioItAnswersRunsAgainToTheSameFigures() throws Exception {
        JsonNode first = JSON.readTree(post(
                        "/api/run",
                        "{\"profile\": \"grpc\", \"grpc\": {\"implementation\": \"go\","
                                + " \"max_ejection_percent\": 34, \"success_rate_ejection\": {}}}")
                .body());
        assertThat(first.at("/grpc/implementation").asText()).isEqualTo("go");
        HttpResponse<String> r = post("/api/run", JSON.writeValueAsString(first.get("scenario")));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode again = JSON.readTree(r.body());
        assertThat(again.get("events")).isEqualTo(first.get("events"));
        assertThat(again.get("summary")).isEqualTo(first.get("summary"));
        assertThat(again.at("/grpc/origin").asText()).isEqualTo("the scenario's grpc block");
    }

    @Test
    void theComparisonRunsTheSameTrafficUnderEnvoyGrpcAndGateway() throws Exception {
        HttpResponse<String> r = post("/api/compare", "{\"profile\": \"grpc\"}");
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode got = JSON.readTree(r.body());
        JsonNode envoy = got.at("/columns/0");
        JsonNode grpc = got.at("/columns/1");
        JsonNode gateway = got.at("/columns/2");
        assertThat(envoy.get("profile").asText()).isEqualTo("envoy");
        assertThat(envoy.get("failed").asLong()).isEqualTo(6_930);
        assertThat(envoy.get("ejections").asLong()).isZero();
        assertThat(envoy.get("refused").asLong()).isEqualTo(21);
        assertThat(grpc.get("profile").asText()).isEqualTo("grpc (grpc-java)");
        assertThat(grpc.get("failed").asLong()).isEqualTo(990);
        assertThat(grpc.get("ejections").asLong()).isEqualTo(3);
        assertThat(JSON.convertValue(grpc.get("ejected_at"), List.class))
                .containsExactly("host-0@40s", "host-0@90s", "host-0@170s");
        assertThat(JSON.convertValue(grpc.get("returned_at"), List.class))
                .containsExactly("host-0@80s", "host-0@160s", "host-0@270s");
        assertThat(gateway.get("profile").asText()).isEqualTo("gateway");
        assertThat(gateway.get("requests").asLong()).isEqualTo(180_000);
        assertThat(got.get("text").asText()).contains("failed            6,930     990");
        // an Envoy scenario is compared the same way, gRPC reading its outlier_detection as the xDS client does
        JsonNode fromEnvoy = JSON.readTree(post("/api/compare", "{}").body());
        assertThat(fromEnvoy.get("columns")).isEqualTo(got.get("columns"));
    }

    @Test
    void badValuesAreOneMessageNamingTheKey() throws Exception {
        HttpResponse<String> r = post(
                "/api/run",
                "{\"profile\": \"grpc\", \"grpc\": {\"success_rate_ejection\": "
                        + "{\"enforcement_percentage\": 150}}}");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(r.body()).get("error").asText())
                .isEqualTo(
                        "request:1: "
                                + "grpc.success_rate_ejection.enforcement_percentage: 150 is not allowed; expected a whole number from 0 to 100");
        r = post("/api/run", "{\"profile\": \"grpc\", \"grpc\": {\"implementation\": \"rust\"}}");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(r.body()).get("error").asText())
                .contains("grpc.implementation")
                .contains("rust");
        r = post("/api/run", "{\"profile\": \"grpc\", \"traffic\": {\"clients\": 50}}");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(r.body()).get("error").asText())
                .isEqualTo("traffic.clients: 50 is not allowed with the"
                        + " gRPC profile; expected 1: it models one channel (set Callers to 1, or use the Envoy profile for several"
                        + " callers)");
        r = post("/api/compare", "{\"profile\": \"grpc\", \"duration\": \"100000s\", \"traffic\": {\"rps\": 1000}}");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(r.body()).get("error").asText())
                .startsWith("the simulation would send 100,000,000 "
                        + "requests (traffic.rps x duration), over the lab's limit of 20,000,000 requests per run");
        r = post("/api/compare", "{\"profile\": \"gateway\"}");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(r.body()).get("error").asText()).contains("this scenario's profile is gateway");
        // and the server answers afterwards
        assertThat(post("/api/run", "{\"profile\": \"grpc\"}").statusCode()).isEqualTo(200);
    }

    @Test
    void theSettingsCarryTheGrpcControlsAndTheDefaultBlock() throws Exception {
        HttpResponse<String> r = LAB.client()
                .send(
                        HttpRequest.newBuilder(LAB.server().uri().resolve("/api/settings"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        JsonNode grpc = JSON.readTree(r.body()).get("grpc");
        assertThat(grpc.at("/defaults/interval").asText()).isEqualTo("10s");
        assertThat(grpc.at("/defaults/max_ejection_percent").asInt()).isEqualTo(10);
        assertThat(grpc.at("/defaults/success_rate_ejection/request_volume").asInt())
                .isEqualTo(100);
        assertThat(grpc.at("/defaults/failure_percentage_ejection/threshold").asInt())
                .isEqualTo(85);
        List<String> paths = new ArrayList<>();
        grpc.get("controls").forEach(c -> paths.add(c.get("path").asText()));
        assertThat(paths)
                .contains(
                        "grpc.implementation",
                        "grpc.interval",
                        "grpc.base_ejection_time",
                        "grpc.max_ejection_time",
                        "grpc.max_ejection_percent",
                        "grpc.success_rate_ejection",
                        "grpc.success_rate_ejection.stdev_factor",
                        "grpc.failure_percentage_ejection.threshold",
                        "grpc.failure_percentage_ejection.request_volume");
    }
}
