package dev.outlierlab.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.outlierlab.sim.RunWatcher;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The lab's API for {@code profile: nginx|haproxy|caddy} scenarios, without HTTP. */
class ServerLabApiTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final LabApi api = new LabApi(SimulationLimits.DEFAULT);

    private static final String LAB = """
            {"name": "two-servers", "duration": "60s", "seed": 7, "traffic": {"rps": 10},
             "faults": [{"hosts": ["10.0.0.1:8080"], "start": "0s", "end": "60s", "error_rate": 100, "status": 503}],
            """;

    @Test
    void eachServerProfileRunsInTheLabWithItsOwnReasons() throws Exception {
        JsonNode nginx = JSON.readTree(api.run(LAB + """
                 "profile": "nginx", "nginx": {"servers": ["10.0.0.1:8080", "10.0.0.2:8080"],
                 "proxy_next_upstream": ["error", "timeout", "http_503"]}}
                """));
        assertThat(nginx.get("profile").asText()).isEqualTo("nginx");
        assertThat(nginx.at("/summary/client_errors").asLong()).isZero();
        assertThat(nginx.at("/summary/ejections").asLong()).isEqualTo(6);
        assertThat(nginx.at("/events/0/action").asText()).isEqualTo("eject");
        assertThat(nginx.at("/events/0/reason").asText()).isEqualTo("max_fails");
        assertThat(nginx.at("/events/1/time_ns").asLong()).isEqualTo(11_000_000_000L);
        assertThat(nginx.at("/scenario/nginx/servers/1").asText()).isEqualTo("10.0.0.2:8080");

        JsonNode haproxy = JSON.readTree(api.run(LAB + """
                 "profile": "haproxy", "haproxy": {"servers": ["10.0.0.1:8080", "10.0.0.2:8080"],
                 "observe": "layer7", "error_limit": 5, "on_error": "mark-down"}}
                """));
        assertThat(haproxy.at("/summary/ejections").asLong()).isEqualTo(15);
        assertThat(haproxy.at("/events/0/reason").asText()).isEqualTo("observe");
        assertThat(haproxy.at("/events/1/reason").asText()).isEqualTo("check_passed");

        JsonNode caddy = JSON.readTree(api.run(LAB + """
                 "profile": "caddy", "caddy": {"upstreams": ["10.0.0.1:8080", "10.0.0.2:8080"],
                 "fail_duration": "10s", "unhealthy_status": ["5xx"]}}
                """));
        // max_fails 1 by default: out at each 503 for fail_duration, 6 times a minute
        assertThat(caddy.at("/summary/ejections").asLong()).isEqualTo(6);
        assertThat(caddy.at("/events/1/reason").asText()).isEqualTo("fail_duration");
    }

    @Test
    void aLatencyThatWouldKeepTooMuchInFlightIsRefusedByTheLabsLimitsFirst() {
        // a run's decisions are bounded before it starts, and each slow response in flight is one failure to count,
        // so the page never reaches the simulation's own bound on responses in flight
        String slow = """
                {"name": "slow", "duration": "300s", "seed": 7, "traffic": {"rps": 60000},
                 "faults": [{"hosts": ["10.0.0.1:8080"], "error_rate": 100, "status": 503, "latency": "1h"}],
                 "profile": "caddy", "caddy": {"upstreams": ["10.0.0.1:8080", "10.0.0.2:8080"],
                 "fail_duration": "10s", "unhealthy_status": ["5xx"]}}
                """;
        assertThatThrownBy(() -> api.run(slow))
                .isInstanceOf(ApiException.class)
                .hasMessageContaining("detector decisions, over the lab's limit of 200,000 per run");
    }

    @Test
    void theComparisonRunsTheSameTrafficThroughEachServerWithTheSettingsItStates() throws Exception {
        String lab = """
                {"name": "two-servers", "duration": "60s", "seed": 7, "traffic": {"rps": 10},
                 "cluster": {"hosts": 2},
                 "faults": [{"hosts": 1, "start": "10s", "end": "60s", "error_rate": 100, "status": 503}]}
                """;
        JsonNode compared = JSON.readTree(api.compare(lab, RunWatcher.NONE));
        Map<String, JsonNode> columns = new LinkedHashMap<>();
        compared.get("columns").forEach(c -> columns.put(c.get("profile").asText(), c));
        assertThat(columns).containsKeys("envoy", "nginx", "haproxy", "caddy");
        String hosts = "\"servers\": [\"host-0\", \"host-1\"]";
        String[][] runs = {
            {"nginx", "{" + hosts + "}"},
            {"haproxy", "{" + hosts + ", \"check\": true, \"observe\": \"layer7\"}"},
            {
                "caddy",
                "{\"upstreams\": [\"host-0\", \"host-1\"], \"fail_duration\": \"30s\","
                        + " \"unhealthy_status\": [\"5xx\"]}"
            }
        };
        for (String[] r : runs) {
            JsonNode run = JSON.readTree(api.run(lab.substring(0, lab.lastIndexOf('}')) + ", \"profile\": \"" + r[0]
                    + "\", \"" + r[0] + "\": " + r[1] + "}"));
            JsonNode column = columns.get(r[0]);
            assertThat(column.get("requests").asLong())
                    .as(r[0])
                    .isEqualTo(run.at("/summary/requests").asLong());
            assertThat(column.get("failed").asLong())
                    .as(r[0])
                    .isEqualTo(run.at("/summary/client_errors").asLong());
            assertThat(column.get("ejections").asLong())
                    .as(r[0])
                    .isEqualTo(run.at("/summary/ejections").asLong());
            assertThat(column.get("requests_during_fault").asLong()).as(r[0]).isEqualTo(500);
        }
        // nginx's defaults never count a 503: every one reaches a client, nothing is taken out
        assertThat(columns.get("nginx").get("ejections").asLong()).isZero();
        assertThat(columns.get("nginx").get("failed").asLong())
                .isEqualTo(columns.get("nginx").get("failed_during_fault").asLong())
                .isPositive();
        // Caddy with 5xx unhealthy takes the failing upstream out: fewer client errors than nginx
        assertThat(columns.get("caddy").get("ejections").asLong()).isPositive();
        assertThat(columns.get("caddy").get("failed").asLong())
                .isLessThan(columns.get("nginx").get("failed").asLong());
    }

    @Test
    void settingsDescribeEachServerProfilesControls() throws Exception {
        JsonNode settings = JSON.readTree(api.settings());
        assertThat(settings.at("/nginx/controls/0/key").asText()).isEqualTo("nginx.max_fails");
        assertThat(settings.at("/nginx/controls/0/default").asLong()).isEqualTo(1);
        assertThat(settings.at("/haproxy/controls/3/default").asText()).isEqualTo("fail-check");
        assertThat(settings.at("/caddy/controls/0/key").asText()).isEqualTo("caddy.fail_duration");
    }
}
