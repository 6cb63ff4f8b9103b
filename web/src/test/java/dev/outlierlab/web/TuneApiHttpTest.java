package dev.outlierlab.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The Tune view's API and page over real HTTP: a small search, its front's links into the lab, and refusals. */
class TuneApiHttpTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final LabOnLoopback LAB = new LabOnLoopback();

    private static HttpResponse<String> post(String body) throws Exception {
        return LAB.client()
                .send(
                        HttpRequest.newBuilder(LAB.server().uri().resolve("/api/tune"))
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(body))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aSmallSearchAnswersWithAFrontWhosePointsOpenTheSettingInTheLab() throws Exception {
        HttpResponse<String> r = post("{\"hosts\": 5, \"rps\": 100, \"seeds\": 1}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode json = JSON.readTree(r.body().trim());
        assertThat(json.has("error")).as(r.body()).isFalse();
        JsonNode front = json.get("front");
        assertThat(front.size()).isBetween(1, 8);
        for (JsonNode row : front) {
            JsonNode lab = row.get("lab_scenario");
            // the lab's own scenario format: what POST /api/run takes, with the setting's outlier_detection
            assertThat(lab.get("cluster").get("hosts").asInt()).isEqualTo(5);
            assertThat(lab.get("outlier_detection").get("max_ejection_percent").asLong())
                    .isEqualTo(row.get("setting").get("max_ejection_percent").asLong());
            HttpResponse<String> run = LAB.client()
                    .send(
                            HttpRequest.newBuilder(LAB.server().uri().resolve("/api/run"))
                                    .POST(HttpRequest.BodyPublishers.ofString(lab.toString()))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(run.statusCode()).as(run.body()).isEqualTo(200);
        }
        assertThat(json.get("recommended").get("file").asText()).contains("outlier_detection:");
    }

    @Test
    void badRequestsAreA400NamingTheKey() throws Exception {
        HttpResponse<String> hosts = post("{\"hosts\": 500}");
        assertThat(hosts.statusCode()).isEqualTo(400);
        assertThat(hosts.body()).contains("hosts: 500 is not allowed; expected a whole number from 2 to 50");
        HttpResponse<String> key = post("{\"hostz\": 5}");
        assertThat(key.statusCode()).isEqualTo(400);
        assertThat(key.body()).contains("unknown key 'hostz'");
        HttpResponse<String> big = post("{\"hosts\": 50, \"rps\": 100000, \"seeds\": 8}");
        assertThat(big.statusCode()).isEqualTo(400);
        assertThat(big.body()).contains("over the lab's limit");
    }

    @Test
    void trailingTokensADuplicateKeyAndALongValueAreRefusedShortly() throws Exception {
        HttpResponse<String> trailing = post("{\"hosts\": 5, \"rps\": 100, \"seeds\": 1} garbage");
        assertThat(trailing.statusCode()).as(trailing.body()).isEqualTo(400);
        assertThat(trailing.body()).contains("malformed JSON");
        HttpResponse<String> twice = post("{\"hosts\": 5, \"hosts\": 50, \"rps\": 100, \"seeds\": 1}");
        assertThat(twice.statusCode()).as(twice.body()).isEqualTo(400);
        assertThat(twice.body()).contains("Duplicate field 'hosts'");
        // a 40 KB key is echoed as its first 100 characters and its length, a 60 KB value as a short prefix
        HttpResponse<String> longKey = post("{\"" + "k".repeat(40_000) + "\": 1}");
        assertThat(longKey.statusCode()).isEqualTo(400);
        assertThat(longKey.body())
                .contains("k".repeat(100) + "... (40000 characters)")
                .hasSizeLessThan(1000);
        HttpResponse<String> longValue = post("{\"target\": \"" + "t".repeat(60_000) + "\"}");
        assertThat(longValue.statusCode()).isEqualTo(400);
        assertThat(longValue.body()).contains("is not a target").hasSizeLessThan(1000);
    }

    @Test
    void theTunePageIsServedAndTheLabLinksToIt() throws Exception {
        HttpResponse<String> page = LAB.client()
                .send(
                        HttpRequest.newBuilder(LAB.server().uri().resolve("/tune.html"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("id=\"tune-plot\"").contains("/tune.js");
        HttpResponse<String> script = LAB.client()
                .send(
                        HttpRequest.newBuilder(LAB.server().uri().resolve("/tune.js"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(script.body()).contains("/#scenario=");
        HttpResponse<String> index = LAB.client()
                .send(
                        HttpRequest.newBuilder(LAB.server().uri().resolve("/")).build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(index.body()).contains("href=\"/tune.html\"");
    }
}
