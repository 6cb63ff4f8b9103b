package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.engine.envoy.OutlierSetting;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

/**
 * {@code tune --format json} says each target's setting in that target's own fields: the recommendation's
 * {@code setting} is what the printed file of the same run says (parsed from it), with no Envoy field in it, and its
 * {@code lab_scenario} names no Envoy release for a target that does not run on Envoy.
 */
class TuneVocabularyTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SUITE = "../docs/examples/tune-suite.yaml";

    /** Envoy's outlier_detection field names; {@code interval} is every target's own word too. */
    private static final Set<String> ENVOY_FIELDS = Arrays.stream(OutlierSetting.values())
            .map(OutlierSetting::envoyName)
            .filter(n -> !n.equals("interval"))
            .collect(Collectors.toUnmodifiableSet());

    /** Each tune's JSON by its arguments: a test that needs the same run again reads it here. */
    private static final Map<String, JsonNode> RUNS = new ConcurrentHashMap<>();

    private static JsonNode tune(String... args) {
        return RUNS.computeIfAbsent(String.join(" ", args), k -> run(args));
    }

    private static JsonNode run(String... args) {
        List<String> all = new ArrayList<>(List.of("tune", "--hosts", "4", "--rps", "60"));
        all.addAll(List.of(args));
        all.addAll(List.of("--suite", SUITE, "--seeds", "2", "--format", "json"));
        CliRunner.Outcome o = CliRunner.run(all.toArray(String[]::new));
        assertThat(o.exit()).as(o.err()).isZero();
        return o.json();
    }

    private static void noEnvoyField(JsonNode setting) {
        for (Iterator<Map.Entry<String, JsonNode>> it = setting.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            assertThat(ENVOY_FIELDS).as("setting field " + f.getKey()).doesNotContain(f.getKey());
            if (f.getValue().isObject()) {
                noEnvoyField(f.getValue());
            }
        }
    }

    /** The lab scenario of a target of its own: its profile and block, no Envoy release or outlier_detection. */
    private static void ownLabScenario(JsonNode rec, String profile) {
        JsonNode lab = rec.get("lab_scenario");
        assertThat(lab.get("profile").asText()).isEqualTo(profile);
        assertThat(lab.has(profile)).isTrue();
        assertThat(lab.has("envoy_version")).isFalse();
        assertThat(lab.has("outlier_detection")).isFalse();
    }

    private static JsonNode yamlPath(String text, String... path) {
        Object node = new Yaml().load(text);
        for (String key : path) {
            node = key.matches("\\d+") ? ((List<?>) node).get(Integer.parseInt(key)) : ((Map<?, ?>) node).get(key);
        }
        return JSON.valueToTree(node);
    }

    /**
     * nginx: every server line of the printed upstream has the setting's {@code max_fails} and {@code fail_timeout},
     * and its {@code proxy_next_upstream} lists the setting's words; the defaults row is nginx's own (max_fails 1,
     * fail_timeout 10s, error timeout).
     */
    @Test
    void nginxSaysMaxFailsFailTimeoutAndProxyNextUpstream() {
        JsonNode root = tune("--target", "nginx");
        assertThat(root.get("request").get("envoy_version").isNull()).isTrue();
        JsonNode current = root.get("current").get("setting");
        assertThat(current.toString())
                .isEqualTo(
                        "{\"max_fails\":1,\"fail_timeout\":\"10s\",\"proxy_next_upstream\":[\"error\",\"timeout\"]}");
        JsonNode rec = root.get("recommended");
        JsonNode set = rec.get("setting");
        noEnvoyField(set);
        String file = rec.get("file").asText();
        Matcher servers = Pattern.compile("server (\\S+) max_fails=(\\d+) fail_timeout=(\\d+s);")
                .matcher(file);
        int lines = 0;
        while (servers.find()) {
            lines++;
            assertThat(Long.parseLong(servers.group(2)))
                    .isEqualTo(set.get("max_fails").asLong());
            assertThat(servers.group(3)).isEqualTo(set.get("fail_timeout").asText());
        }
        assertThat(lines).isEqualTo(4);
        Matcher next = Pattern.compile("proxy_next_upstream ([^;]+);").matcher(file);
        assertThat(next.find()).isTrue();
        List<String> words = new ArrayList<>();
        set.get("proxy_next_upstream").forEach(w -> words.add(w.asText()));
        assertThat(next.group(1)).isEqualTo(String.join(" ", words));
        assertThat(rec.get("label").asText())
                .startsWith("max_fails=" + set.get("max_fails").asLong() + " fail_timeout="
                        + set.get("fail_timeout").asText());
        ownLabScenario(rec, "nginx");
        assertThat(rec.get("lab_scenario").get("nginx").get("max_fails").asLong())
                .isEqualTo(set.get("max_fails").asLong());
    }

    /** nginx from a user's file: the setting is what the spliced file's server lines and patch say. */
    @Test
    void nginxFromAFileMatchesTheSplicedFileAndItsPatch() {
        JsonNode rec = tune("--from", "../docs/examples/servers/nginx.conf").get("recommended");
        JsonNode set = rec.get("setting");
        noEnvoyField(set);
        assertThat(rec.get("spliced").asBoolean()).isTrue();
        String file = rec.get("file").asText();
        Matcher fails = Pattern.compile("max_fails=(\\d+)").matcher(file);
        int n = 0;
        while (fails.find()) {
            n++;
            assertThat(Long.parseLong(fails.group(1)))
                    .isEqualTo(set.get("max_fails").asLong());
        }
        assertThat(n).isPositive();
        String patch = rec.get("patch").isNull() ? "" : rec.get("patch").asText();
        Matcher p = Pattern.compile("max_fails=(\\d+)").matcher(patch);
        if (p.find()) {
            assertThat(Long.parseLong(p.group(1)))
                    .isEqualTo(set.get("max_fails").asLong());
        }
    }

    /** HAProxy: each server line's {@code observe}, {@code error-limit} and {@code on-error} are the setting's. */
    @Test
    void haproxySaysObserveErrorLimitAndOnError() {
        JsonNode root = tune("--target", "haproxy");
        assertThat(root.get("current").get("setting").toString()).isEqualTo("{\"check\":true,\"observe\":\"none\"}");
        JsonNode rec = root.get("recommended");
        JsonNode set = rec.get("setting");
        noEnvoyField(set);
        Matcher lines = Pattern.compile("(?m)^\\s*server (\\S+) (\\S+)(.*)$")
                .matcher(rec.get("file").asText());
        int n = 0;
        while (lines.find()) {
            n++;
            String params = lines.group(3);
            assertThat(params.contains(" check")).isEqualTo(set.get("check").asBoolean());
            if (set.get("observe").asText().equals("none")) {
                assertThat(params).doesNotContain("observe");
            } else {
                assertThat(params)
                        .contains(" observe " + set.get("observe").asText() + " error-limit "
                                + set.get("error-limit").asLong() + " on-error "
                                + set.get("on-error").asText());
            }
        }
        assertThat(n).isEqualTo(4);
        ownLabScenario(rec, "haproxy");
    }

    /** Caddy: the reverse_proxy block's {@code fail_duration}, {@code max_fails} and {@code unhealthy_status}. */
    @Test
    void caddySaysFailDurationMaxFailsAndUnhealthyStatus() {
        JsonNode root = tune("--target", "caddy");
        assertThat(root.get("current").get("setting").toString())
                .isEqualTo("{\"fail_duration\":\"0s\",\"max_fails\":1,\"unhealthy_status\":[]}");
        JsonNode rec = root.get("recommended");
        JsonNode set = rec.get("setting");
        noEnvoyField(set);
        String file = rec.get("file").asText();
        if (set.get("fail_duration").asText().equals("0s")) {
            assertThat(file).doesNotContain("fail_duration");
        } else {
            assertThat(file)
                    .contains("fail_duration " + set.get("fail_duration").asText() + "\n")
                    .contains("max_fails " + set.get("max_fails").asLong() + "\n");
        }
        List<String> status = new ArrayList<>();
        set.get("unhealthy_status").forEach(s -> status.add(s.asText()));
        if (status.isEmpty()) {
            assertThat(file).doesNotContain("unhealthy_status");
        } else {
            assertThat(file).contains("unhealthy_status " + String.join(" ", status) + "\n");
        }
        ownLabScenario(rec, "caddy");
    }

    /** gRPC: the setting is the service config's outlier_detection_experimental object, less its child policy. */
    @Test
    void grpcSaysTheServiceConfigsOutlierDetectionFields() throws Exception {
        JsonNode root = tune("--target", "grpc");
        JsonNode rec = root.get("recommended");
        JsonNode set = rec.get("setting");
        noEnvoyField(set);
        ObjectNode policy = (ObjectNode) JSON.readTree(rec.get("file").asText())
                .get("loadBalancingConfig")
                .get(0)
                .get("outlier_detection_experimental");
        policy.remove("childPolicy");
        assertThat(set).isEqualTo(policy);
        assertThat(set.get("maxEjectionPercentage").isNumber()).isTrue();
        ownLabScenario(rec, "grpc");
        // what the detectors can do, in the service config's fields: 4 hosts are fewer than the 5 minimum hosts
        assertThat(root.get("detectors").get(0).asText())
                .startsWith("success rate cannot run: 4 hosts are fewer than outlier_detection_experimental"
                        + ".successRateEjection.minimumHosts 5");
        for (JsonNode line : root.get("detectors")) {
            for (String envoy : ENVOY_FIELDS) {
                assertThat(line.asText()).doesNotContainPattern("\\b" + envoy + "\\b");
            }
        }
    }

    /** The gateway: the setting is the printed configuration's {@code gateway:} block. */
    @Test
    void gatewaySaysItsOwnBlock() {
        JsonNode rec = tune("--target", "gateway").get("recommended");
        JsonNode set = rec.get("setting");
        noEnvoyField(set);
        JsonNode block = yamlPath(rec.get("file").asText(), "gateway");
        assertThat(set.size()).isEqualTo(block.size());
        set.fields().forEachRemaining(f -> {
            JsonNode v = block.get(f.getKey());
            if (f.getValue().isNumber()) {
                assertThat(v.asDouble()).as(f.getKey()).isEqualTo(f.getValue().asDouble());
            } else {
                assertThat(v.asText()).as(f.getKey()).isEqualTo(f.getValue().asText());
            }
        });
        assertThat(rec.get("lab_scenario").has("envoy_version")).isFalse();
    }

    /** Istio: the setting is the DestinationRule's trafficPolicy.outlierDetection, camelCase, Go durations. */
    @Test
    void istioSaysTheDestinationRulesOutlierDetection() {
        JsonNode rec = tune("--target", "istio").get("recommended");
        noEnvoyField(rec.get("setting"));
        assertThat(rec.get("setting"))
                .isEqualTo(yamlPath(rec.get("file").asText(), "spec", "trafficPolicy", "outlierDetection"));
        assertThat(rec.get("setting").has("consecutive5xxErrors")).isTrue();
    }

    /** Envoy Gateway and Kuma: their resource's block, as printed. */
    @Test
    void envoyGatewayAndKumaSayTheirResourcesBlocks() {
        JsonNode eg = tune("--target", "envoy-gateway").get("recommended");
        noEnvoyField(eg.get("setting"));
        assertThat(eg.get("setting")).isEqualTo(yamlPath(eg.get("file").asText(), "spec", "healthCheck", "passive"));
        JsonNode kuma = tune("--target", "kuma").get("recommended");
        noEnvoyField(kuma.get("setting"));
        assertThat(kuma.get("setting"))
                .isEqualTo(yamlPath(kuma.get("file").asText(), "spec", "to", "0", "default", "outlierDetection"));
    }

    /**
     * A server target's lab scenario runs as {@code run} runs a scenario of its profile, with the figures tune scored
     * seed 1 of that scenario with.
     */
    @Test
    void aServersLabScenarioRunsWithTheFiguresTuneScored(@TempDir Path dir) throws Exception {
        for (String target : List.of("nginx", "haproxy", "caddy")) {
            JsonNode rec = tune("--target", target).get("recommended");
            JsonNode lab = rec.get("lab_scenario");
            JsonNode seed = null;
            for (JsonNode sc : rec.get("scenarios")) {
                if (sc.get("name").asText().equals(lab.get("name").asText())) {
                    seed = sc.get("seeds").get(0);
                }
            }
            assertThat(seed).as(target).isNotNull();
            Path file = dir.resolve(target + "-lab.json");
            Files.writeString(file, lab.toString());
            CliRunner.Outcome run = CliRunner.run("run", file.toString(), "--format", "json");
            assertThat(run.exit()).as(run.err()).isZero();
            JsonNode summary = run.json().get("summary");
            assertThat(summary.get("requests").asLong())
                    .as(target)
                    .isEqualTo(seed.get("requests").asLong());
            assertThat(summary.get("client_errors").asLong())
                    .as(target)
                    .isEqualTo(seed.get("failed").asLong());
        }
    }

    /**
     * {@code tune --explain} on a server target shows the recommendation's run as {@code run} shows an nginx scenario
     * (it failed with an internal error before): the suite's cache-miss case, 150 s at 300 rps, is 45,000 requests over
     * its 6 servers.
     */
    @Test
    void explainOnNginxShowsTheRunAsRunDoes() {
        CliRunner.Outcome o = CliRunner.run(
                "tune",
                "--target",
                "nginx",
                "--hosts",
                "4",
                "--rps",
                "60",
                "--suite",
                SUITE,
                "--seeds",
                "2",
                "--explain",
                "cache-miss");
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(o.out())
                .contains("Decision trace of the recommendation on cache-miss (seed 1):\n"
                        + "outlier-lab tune --explain: upstream search, 6 servers, 1 counting worker")
                .contains("scenario cache-miss: 150s, 300 rps, seed 1\n")
                .contains("requests 45000, client 5xx ");
    }

    /** The same inputs give the same bytes, nested blocks (Kuma's detectors) included. */
    @Test
    void theSameInputsGiveTheSameBytes() {
        String[] args = {
            "tune",
            "--target",
            "kuma",
            "--hosts",
            "4",
            "--rps",
            "60",
            "--suite",
            SUITE,
            "--seeds",
            "2",
            "--format",
            "json"
        };
        CliRunner.Outcome a = CliRunner.run(args);
        assertThat(a.exit()).as(a.err()).isZero();
        assertThat(CliRunner.run(args).out()).isEqualTo(a.out());
    }
}
