package dev.outlierlab.config.caddy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Tuned passive fields go into Caddy's JSON where the reader takes them from, every other byte kept. */
class CaddyJsonWriterTest {
    private static final String HANDLER_HEAD = """
            {"apps": {"http": {"servers": {"srv0": {"listen": [":80"], "routes": [{"handle": [
              {"handler": "subroute", "routes": [{"handle": [{"handler": "static_response", "body": "x"}]}]},
              {"handler": "reverse_proxy",
               "upstreams": [{"dial": "10.0.0.1:8080"}, {"dial": "10.0.0.2:8080"}]""";

    private static final String TAIL = "}]}]}}}}}\n";

    private static Map<String, String> tuned() {
        Map<String, String> v = new LinkedHashMap<>();
        v.put("fail_duration", "\"30s\"");
        v.put("max_fails", "1");
        v.put("unhealthy_status", "[5, 429]");
        return v;
    }

    @Test
    void replacesTheFieldsWhereTheyAreAndAddsTheMissingOnesToPassive() {
        String original = HANDLER_HEAD + ",\n   \"health_checks\": {\"passive\": {\"fail_duration\": 10000000000,"
                + " \"unhealthy_latency\": \"1.5s\"}}" + TAIL;
        String strings = original.replace("10000000000", "\"10s\"");
        assertThat(CaddyJsonWriter.write(strings, Map.of("fail_duration", "\"30s\"")))
                .isEqualTo(original.replace("10000000000", "\"30s\""));
        String written = CaddyJsonWriter.write(original, tuned());
        assertThat(written)
                .isEqualTo(HANDLER_HEAD + ",\n   \"health_checks\": {\"passive\": {\"max_fails\": 1,"
                        + " \"unhealthy_status\": [5, 429], \"fail_duration\": \"30s\", \"unhealthy_latency\": \"1.5s\"}}"
                        + TAIL);
        CaddySettings read = CaddyConfigReader.readText(written, "caddy.json");
        assertThat(read.config().failDurationNanos()).isEqualTo(30_000_000_000L);
        assertThat(read.config().maxFails()).isEqualTo(1);
        assertThat(read.config().unhealthyStatus()).containsExactly(5, 429);
        assertThat(read.config().unhealthyLatencyNanos()).isEqualTo(1_500_000_000L);
    }

    @Test
    void addsPassiveOrHealthChecksWhenAbsentAndTouchesOnlyTheFirstReverseProxy() {
        String second = ", {\"handler\": \"reverse_proxy\", \"upstreams\": [{\"dial\": \"10.0.0.9:80\"}]}";
        String noChecks = HANDLER_HEAD + "}" + second + "]}]}}}}}\n";
        String written = CaddyJsonWriter.write(noChecks, tuned());
        assertThat(written)
                .startsWith(HANDLER_HEAD.replace(
                        "{\"handler\": \"reverse_proxy\",",
                        "{\"health_checks\": {\"passive\": {\"fail_duration\": \"30s\", \"max_fails\": 1,"
                                + " \"unhealthy_status\": [5, 429]}}, \"handler\": \"reverse_proxy\","))
                .endsWith(second + "]}]}}}}}\n");
        assertThat(CaddyConfigReader.readText(written, "caddy.json").config().maxFails())
                .isEqualTo(1);

        String emptyChecks = HANDLER_HEAD + ", \"health_checks\": {}" + TAIL;
        assertThat(CaddyJsonWriter.write(emptyChecks, Map.of("max_fails", "2")))
                .isEqualTo(HANDLER_HEAD + ", \"health_checks\": {\"passive\": {\"max_fails\": 2}}" + TAIL);
        String emptyPassive = HANDLER_HEAD + ", \"health_checks\": {\"passive\": { }}" + TAIL;
        assertThat(CaddyJsonWriter.write(emptyPassive, Map.of("max_fails", "2")))
                .isEqualTo(HANDLER_HEAD + ", \"health_checks\": {\"passive\": {\"max_fails\": 2 }}" + TAIL);
    }
}
