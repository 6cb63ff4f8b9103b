package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Envoy's own outputs as Envoy writes them: the outlier event log's timestamps in whole milliseconds
 * ({@code TimestampUtil::systemClockToTimestamp}) and an IPv6 host as {@code [address]:port} ({@code Ipv6Instance}),
 * the admin stats' names sanitized ({@code Stats::Utility::sanitizeStatsName}) and the Prometheus cluster tag
 * taking one dot-separated token ({@code cluster.$.**} in {@code well_known_names.cc}).
 */
class EnvoyOutputsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private Path ipv6Cluster() throws IOException {
        StringBuilder y =
                new StringBuilder("name: reviews.default\nconnect_timeout: 1s\ntype: STATIC\nload_assignment:\n"
                        + "  cluster_name: reviews.default\n  endpoints:\n  - lb_endpoints:\n");
        for (int i = 1; i <= 5; i++) {
            y.append("    - endpoint: {address: {socket_address: {address: \"2001:db8::")
                    .append(i)
                    .append("\", port_value: 8080}}}\n");
        }
        y.append("outlier_detection:\n  max_ejection_percent: 20\n");
        Path f = dir.resolve("reviews.yaml");
        Files.writeString(f, y.toString());
        return f;
    }

    @Test
    void eventLogTimestampsAreWholeMillisecondsAndAnIpv6HostIsBracketed() throws IOException {
        // five hosts at 600 rps: host-0 (failing everything from 30 s) gets requests 18000, 18005, ..., so its fifth
        // failure is request 18020, sent at floor(18020 * 1e9 / 600) ns = 30.033333333 s: Envoy writes 30.033
        Path log = dir.resolve("events.jsonl");
        CliRunner.Outcome r = CliRunner.run(
                "run",
                "--envoy",
                ipv6Cluster().toString(),
                "--set",
                "faults[0].error_rate=100",
                "--event-log",
                log.toString(),
                "--format",
                "json");
        assertThat(r.exit()).as(r.err()).isZero();
        List<String> lines = Files.readAllLines(log);
        JsonNode first = JSON.readTree(lines.get(1));
        assertThat(first.get("type").asText()).isEqualTo("CONSECUTIVE_5XX");
        assertThat(first.get("upstream_url").asText()).isEqualTo("[2001:db8::1]:8080");
        assertThat(r.json().get("events").get(1).get("time_ns").asLong()).isEqualTo(30_033_333_333L);
        assertThat(first.get("timestamp").asText()).isEqualTo("1970-01-01T00:00:30.033Z");
        for (String line : lines) {
            assertThat(JSON.readTree(line).get("timestamp").asText()).matches(".*:\\d\\d(\\.\\d{3})?Z");
        }
    }

    @Test
    void statsNamesAreSanitizedAndThePrometheusTagTakesOneToken() throws IOException {
        String prom = CliRunner.run("run", "--envoy", ipv6Cluster().toString(), "--stats", "prometheus")
                .out();
        assertThat(prom)
                .contains(
                        "# TYPE envoy_cluster_default_outlier_detection_ejections_active gauge\n"
                                + "envoy_cluster_default_outlier_detection_ejections_active{envoy_cluster_name=\"reviews\"} 0\n");
        assertThat(prom).doesNotContain("reviews.default");
        // a name without a dot: the whole name is the tag
        assertThat(CliRunner.run("run", "--stats", "prometheus").out())
                .contains(
                        "envoy_cluster_outlier_detection_ejections_active{envoy_cluster_name=\"bookstore-search\"} 0");
        // ':' becomes '_' in the stat name (and so in the tag); '://' and ':/' become one '_'
        String text = CliRunner.run("run", "--set", "name=outbound:80::reviews", "--stats", "text")
                .out();
        assertThat(text).startsWith("cluster.outbound_80__reviews.outlier_detection.ejections_active: 0\n");
        assertThat(CliRunner.run("run", "--set", "name=http://search", "--stats", "prometheus")
                        .out())
                .contains("{envoy_cluster_name=\"http_search\"}");
    }
}
