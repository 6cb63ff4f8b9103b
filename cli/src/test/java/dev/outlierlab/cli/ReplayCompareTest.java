package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code replay --compare FILE}: a second settings file of the first settings' kind, side by side. */
class ReplayCompareTest {
    @TempDir
    Path dir;

    private Path log;

    /** The default scenario's traffic for 160 s at 100 requests/s, sent with Envoy's default cap (no ejection). */
    @BeforeEach
    void writeLog() {
        log = dir.resolve("access.log");
        assertThat(CliRunner.run(
                                "run",
                                "--set",
                                "traffic.rps=100",
                                "--set",
                                "duration=160s",
                                "--access-log",
                                log.toString())
                        .exit())
                .isZero();
    }

    private Path file(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    private static String cluster(String name, String outlier) {
        return "name: " + name + "\ntype: EDS\nconnect_timeout: 0.25s\neds_cluster_config: {eds_config: {ads: {}}}\n"
                + "outlier_detection:\n  interval: 10s\n" + outlier;
    }

    @Test
    void aScenarioFileAgainstTheDefaultsShowsTheCapsEffectAndTakesCompareSetsOnTop() throws IOException {
        Path proposed = file("proposed.yaml", "outlier_detection:\n  max_ejection_percent: 34\n");
        CliRunner.Outcome o = CliRunner.run("replay", log.toString(), "--compare", proposed.toString());
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(o.out())
                .containsPattern("detections +13 +3\n")
                .containsPattern("ejections +0 +3\n")
                .containsPattern("cap refused +13 +0\n")
                .containsPattern("returns +0 +2\n")
                .containsPattern("time ejected \\(all hosts\\) +0 s +100 s\n")
                .containsPattern("requests moved +0 +1,667\n")
                .containsPattern("failures avoided, at most +0 +550\n")
                .contains("B: " + proposed + "\n", "Decisions that differ (18)");

        CliRunner.Outcome withSet = CliRunner.run(
                "replay",
                log.toString(),
                "--compare",
                proposed.toString(),
                "--compare-set",
                "outlier_detection.base_ejection_time=60s",
                "--format=json");
        assertThat(withSet.exit()).as(withSet.err()).isZero();
        JsonNode compared = withSet.json().get("detectors").get(0).get("compared");
        assertThat(compared.get("file").asText()).isEqualTo(proposed.toString());
        assertThat(compared.get("sets").get(0).asText()).isEqualTo("outlier_detection.base_ejection_time=60s");
        // ejected at 40 s for 60 s, again at 110 s for 120 s (to the end at 160 s): 2 ejections, 1 return, 110 s out
        assertThat(compared.get("predicted")
                        .get("summary")
                        .get("ejections_enforced")
                        .asInt())
                .isEqualTo(2);
        assertThat(compared.get("predicted").get("summary").get("returns").asInt())
                .isEqualTo(1);
        assertThat(compared.get("predicted").get("events").get(2).get("time_ns").asLong())
                .isEqualTo(110_000_000_000L);
    }

    @Test
    void anEnvoyClusterAgainstAnotherOfTheSameName() throws IOException {
        Path deployed = file("deployed.yaml", cluster("search", ""));
        Path proposed =
                file("proposed.yaml", cluster("search", "  max_ejection_percent: 34\n  base_ejection_time: 60s\n"));
        CliRunner.Outcome o = CliRunner.run(
                "replay",
                log.toString(),
                "--envoy",
                deployed.toString(),
                "--hosts",
                "6",
                "--compare",
                proposed.toString(),
                "--events",
                "3");
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(o.out())
                .containsPattern("ejections +0 +2\n")
                .containsPattern("time ejected \\(all hosts\\) +0 s +110 s\n")
                .contains("B: " + proposed + "\n", "B only  40 s       host-0           eject     success_rate");
    }

    @Test
    void aDestinationRuleAgainstAnother() throws IOException {
        String rule = "apiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata: {name: search}\nspec:\n"
                + "  host: search\n  trafficPolicy:\n    outlierDetection: {consecutive5xxErrors: 5, interval: 10s";
        Path deployed = file("dr.yaml", rule + "}\n");
        Path proposed = file("dr-cap34.yaml", rule + ", maxEjectionPercent: 34}\n");
        CliRunner.Outcome o = CliRunner.run(
                "replay",
                log.toString(),
                "--istio",
                deployed.toString(),
                "--hosts",
                "6",
                "--compare",
                proposed.toString(),
                "--format=json");
        assertThat(o.exit()).as(o.err()).isZero();
        // istiod sets enforcing_success_rate 0: with room under the cap, the 13 detections are not enforced
        JsonNode a = o.json().get("detectors").get(0).get("predicted").get("summary");
        JsonNode b = o.json()
                .get("detectors")
                .get(0)
                .get("compared")
                .get("predicted")
                .get("summary");
        assertThat(a.get("ejections_overflow").asInt()).isEqualTo(13);
        assertThat(b.get("ejections_overflow").asInt()).isZero();
        assertThat(b.get("ejections_unenforced").asInt()).isEqualTo(13);
        assertThat(b.get("ejections_enforced").asInt()).isZero();
    }

    @Test
    void aFileOfAnotherKindOrWithoutTheClusterOrTheLogsHostsIsExit2() throws IOException {
        Path envoy = file("envoy.yaml", cluster("search", ""));
        Path rule = file(
                "dr.yaml",
                "apiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata: {name: search}\n"
                        + "spec:\n  host: search\n  trafficPolicy:\n    outlierDetection: {consecutive5xxErrors: 5}\n");
        CliRunner.run(
                        "replay",
                        log.toString(),
                        "--envoy",
                        envoy.toString(),
                        "--hosts",
                        "6",
                        "--compare",
                        rule.toString())
                .assertRejected("--compare " + rule + ": the file is an Istio DestinationRule, but the first settings "
                        + "come from --envoy, so --compare takes an Envoy configuration like it");
        CliRunner.run("replay", log.toString(), "--compare", envoy.toString())
                .assertRejected(
                        "--compare " + envoy + ": the file is an Envoy configuration (it has connect_timeout), "
                                + "but the first settings come from a scenario (--scenario, --set), so --compare takes a scenario file");
        CliRunner.run(
                        "replay",
                        log.toString(),
                        "--istio",
                        rule.toString(),
                        "--hosts",
                        "6",
                        "--compare",
                        envoy.toString())
                .assertRejected(
                        "the file is an Envoy configuration", "--istio, so --compare takes an Istio DestinationRule");
        Path both = file(
                "both.yaml",
                "- " + cluster("search", "").replace("\n", "\n  ") + "\n- "
                        + cluster("billing", "").replace("\n", "\n  "));
        Path billing = file("billing.yaml", cluster("billing", ""));
        CliRunner.run(
                        "replay",
                        log.toString(),
                        "--envoy",
                        both.toString(),
                        "--cluster",
                        "search",
                        "--hosts",
                        "6",
                        "--compare",
                        billing.toString())
                .assertRejected(billing + ": no cluster named 'search'; the clusters are: billing");
        Path twoHosts = file("two.yaml", "cluster:\n  hosts: [host-0, host-1]\n");
        CliRunner.run("replay", log.toString(), "--compare", twoHosts.toString())
                .assertRejected("--compare: the log's host host-2 is not one of the second settings' 2 hosts ("
                        + twoHosts + ")");
    }
}
