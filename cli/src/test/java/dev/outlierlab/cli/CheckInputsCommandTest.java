package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code check} on standard input, directories, several files, templates, and files it must refuse. */
class CheckInputsCommandTest {
    /** check's corpus of real files (tests run in the cli module's folder). */
    static Path corpus(String name) {
        return Path.of("..", "check", "src", "test", "resources", "corpus", name);
    }

    @TempDir
    Path dir;

    @Test
    void standardInput() throws IOException {
        InputStream saved = System.in;
        try {
            System.setIn(new ByteArrayInputStream(
                    Files.readAllBytes(corpus("kuma/meshcircuitbreaker-outbound.input.yaml"))));
            CliRunner.Outcome o = CliRunner.run("check", "-", "--hosts", "6");
            assertThat(o.err()).isEmpty();
            assertThat(o.exit()).isZero();
            assertThat(o.out())
                    .startsWith("outlier-lab check -: 1 cluster (6 hosts)")
                    .contains("mcb-1/to[0] (MeshService)  -:13")
                    .contains("warning success-rate-cannot-eject");
        } finally {
            System.setIn(saved);
        }
    }

    @Test
    void controllerFlagDecidesHowDestinationRulesAreTranslatedAndRefusesOtherNames() {
        // kgateway's own file: its Gateway is of class kgateway, which --controller istiod overrides
        String file = corpus("kgateway/setup-failover.yaml").toString();
        CliRunner.Outcome byFile = CliRunner.run("check", file);
        // the text wraps at 100 columns: compare it with its line breaks as spaces
        assertThat(byFile.out().replaceAll("\\s+", " "))
                .contains("translated by kgateway")
                .contains("the file's Gateway has gatewayClassName kgateway");
        CliRunner.Outcome istiod = CliRunner.run("check", file, "--controller", "istiod");
        assertThat(istiod.out().replaceAll("\\s+", " "))
                .contains("translated by istiod")
                .contains("outlier_detection.enforcing_success_rate = 0")
                .contains("as --controller istiod says");
        CliRunner.Outcome bad = CliRunner.run("check", file, "--controller", "linkerd");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.out()).isEmpty();
        assertThat(bad.err().strip())
                .isEqualTo("outlier-lab: --controller: \"linkerd\" is not allowed; expected istiod "
                        + "or kgateway (the control plane that translates the file's DestinationRules)");
        CliRunner.Outcome run = CliRunner.run("run", "--istio", file, "--hosts", "4", "--controller", "envoy");
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("--controller: \"envoy\" is not allowed; expected istiod or kgateway");
    }

    @Test
    void aDirectoryIsEveryYamlAndJsonFileInIt() throws IOException {
        Files.copy(corpus("istio/bookinfo-virtual-service-all-v1.yaml"), dir.resolve("a-virtual-service.yaml"));
        Files.copy(corpus("istio/destination-rule-locality.yaml"), dir.resolve("b-rule.yml"));
        Files.createDirectories(dir.resolve("chart/templates"));
        Files.copy(corpus("flagger/podinfo-canary-template.yaml"), dir.resolve("chart/templates/canary.yaml"));
        Files.writeString(dir.resolve("notes.txt"), "not read");
        CliRunner.Outcome o = CliRunner.run("check", dir.toString(), "--hosts", "6", "--format", "json");
        assertThat(o.err()).isEmpty();
        // warnings only: exit 0; the template is a note in a directory, not a failure
        assertThat(o.exit()).isZero();
        // files in name order: a-virtual-service.yaml, b-rule.yml, chart/templates/canary.yaml
        // the rule with outlierDetection also gets istiod's locality failover and its default retries as notes
        assertThat(o.json().get("findings").findValuesAsText("id"))
                .containsExactly(
                        "nothing-to-check",
                        "panic-disabled-eject-all",
                        "consecutive-5xx-misses-partial-failure",
                        "istio-locality-failover",
                        "route-retries-hide-failures",
                        "nothing-to-check");
        assertThat(o.json().get("findings").get(5).get("message").asText()).contains("the file is a template");
    }

    @Test
    void aDirectoryOfMixedFilesReportsEveryReadableOneAndNamesEveryUnreadableOneAtTheEnd() throws IOException {
        Files.copy(corpus("cilium/envoy-circuit-breaker.yaml"), dir.resolve("a-cilium.yaml"));
        Files.writeString(dir.resolve("b-broken.yaml"), "name: x\n  bad: [\n");
        Files.copy(corpus("admiral/od.yaml"), dir.resolve("c-admiral.yaml"));
        Files.writeString(dir.resolve("d-values.yaml"), "replicaCount: 2\nimage: {repository: nginx}\nname: web\n");
        Files.writeString(
                dir.resolve("e-typo.yaml"),
                "name: search\nconnect_timeout: 1s\noutlier_detecton:\n  consecutive_5xx: 3\n");
        CliRunner.Outcome o = CliRunner.run("check", dir.toString(), "--hosts", "6");
        // bad input among the files: the worst status, 2, after every readable file was checked
        assertThat(o.exit()).isEqualTo(2);
        assertThat(o.out())
                .startsWith("outlier-lab check " + dir + ": 2 clusters (6 hosts)")
                .contains("default/echo-service  " + dir.resolve("a-cilium.yaml") + ":51")
                .contains("sample-configuration  " + dir.resolve("c-admiral.yaml") + ":13")
                .contains("\n3 files not read:\n  " + dir.resolve("b-broken.yaml") + ":2: malformed YAML")
                .contains("\n  " + dir.resolve("d-values.yaml") + ":1: not Envoy configuration: found a mapping with "
                        + "top-level keys replicaCount, image, name")
                .contains("\n  " + dir.resolve("e-typo.yaml") + ":4: unknown field 'outlier_detecton'; did you mean "
                        + "outlier_detection?")
                .contains("3 errors, 2 warnings");
        assertThat(o.out().indexOf("3 files not read")).isGreaterThan(o.out().indexOf("sample-configuration"));
        assertThat(o.err())
                .contains("b-broken.yaml:2: not read: malformed YAML")
                .contains("d-values.yaml:1: not read")
                .contains("e-typo.yaml:4: not read");
        CliRunner.Outcome json = CliRunner.run("check", dir.toString(), "--format", "json");
        assertThat(json.json().get("findings").findValuesAsText("id"))
                .filteredOn("file-not-read"::equals)
                .hasSize(3);
        // every file, in reading order, each with whether it was read and, if not, why
        JsonNode files = json.json().get("files");
        assertThat(files).hasSize(5);
        assertThat(files.findValuesAsText("path"))
                .containsExactly(
                        dir.resolve("a-cilium.yaml").toString(),
                        dir.resolve("b-broken.yaml").toString(),
                        dir.resolve("c-admiral.yaml").toString(),
                        dir.resolve("d-values.yaml").toString(),
                        dir.resolve("e-typo.yaml").toString());
        assertThat(files.get(0).get("read").asBoolean()).isTrue();
        assertThat(files.get(0).has("reason")).isFalse();
        assertThat(files.get(1).get("read").asBoolean()).isFalse();
        assertThat(files.get(1).get("line").asInt()).isEqualTo(2);
        assertThat(files.get(1).get("reason").asText())
                .isEqualTo("malformed YAML: mapping values are not allowed here");
        assertThat(files.get(4).get("reason").asText()).contains("did you mean outlier_detection?");
    }

    @Test
    void aDirectoryWithNoConfigurationIsTheRunsOneMessageWithoutALineOrAReport() throws IOException {
        Path empty = Files.createDirectories(dir.resolve("empty"));
        CliRunner.Outcome o = CliRunner.run("check", empty.toString());
        assertThat(o.exit()).isEqualTo(2);
        assertThat(o.out()).isEmpty();
        assertThat(o.err().strip())
                .isEqualTo("outlier-lab: " + empty + ": no configuration file in this directory (it is empty); check"
                        + " reads .yaml, .yml and .json files, nginx*.conf, haproxy*.cfg and Caddyfile, in"
                        + " subdirectories too (hidden ones skipped)");
        Path docs = Files.createDirectories(dir.resolve("docs"));
        Files.writeString(docs.resolve("README.md"), "# notes\n");
        Files.writeString(docs.resolve("values.txt"), "replicas: 2\n");
        CliRunner.Outcome other = CliRunner.run("check", docs.toString(), "--format", "json");
        assertThat(other.exit()).isEqualTo(2);
        assertThat(other.out()).isEmpty();
        assertThat(other.err().strip())
                .startsWith("outlier-lab: " + docs + ": no configuration file in this directory (2 other files, e.g."
                        + " README.md); check reads .yaml");
        // beside a file that is read, the directory is listed among the files not read, without a line
        CliRunner.Outcome both = CliRunner.run(
                "check", empty.toString(), corpus("admiral/od.yaml").toString(), "--hosts", "6");
        assertThat(both.exit()).isEqualTo(2);
        assertThat(both.out())
                .contains("1 file not read:\n  " + empty + ": no configuration file in this directory (it is empty)")
                .doesNotContain(empty + ":1");
        assertThat(both.err()).startsWith("outlier-lab: " + empty + ": not read: no configuration file");
    }

    @Test
    void aDirectoryWhoseFilesCannotAllBeReadIsBadInputWithEachFilesMessageAndNoReport() throws IOException {
        Files.writeString(dir.resolve("a-broken.yaml"), "name: x\n  bad: [\n");
        Files.writeString(dir.resolve("b-values.yaml"), "replicaCount: 2\n");
        Files.writeString(dir.resolve("notes.txt"), "not read");
        CliRunner.Outcome o = CliRunner.run("check", dir.toString(), "--format", "sarif");
        assertThat(o.exit()).isEqualTo(2);
        assertThat(o.out()).isEmpty();
        assertThat(o.err().lines())
                .hasSize(2)
                .satisfiesExactly(
                        l -> assertThat(l).contains("a-broken.yaml:2: not read: malformed YAML"),
                        l -> assertThat(l).contains("b-values.yaml:1: not read: not Envoy configuration"));
    }

    @Test
    void oneUnreadableFileAloneIsTheRunsOneMessage() throws IOException {
        Files.writeString(dir.resolve("broken.yaml"), "name: x\n  bad: [\n");
        CliRunner.Outcome o = CliRunner.run("check", dir.resolve("broken.yaml").toString());
        assertThat(o.exit()).isEqualTo(2);
        assertThat(o.out()).isEmpty();
        assertThat(o.err())
                .contains("broken.yaml:2:")
                .contains("malformed YAML")
                .doesNotContain("not read");
    }

    @Test
    void severalFilesInOneReport() {
        CliRunner.Outcome o = CliRunner.run(
                "check",
                corpus("kuma/outbound_cluster_outlier_detection.golden.yaml").toString(),
                corpus("envoy-gateway/failover-backendtrafficpolicy.yaml").toString(),
                "--hosts",
                "4");
        assertThat(o.exit()).isZero();
        assertThat(o.out())
                .contains(": 2 clusters (4 hosts)")
                .contains("kri_msvc_default___second-service_80")
                .contains("passive-health-check")
                .contains("translated by Envoy Gateway");
    }

    @Test
    void refusedFilesExitTwoWithTheReason() {
        CliRunner.run("check", corpus("flagger/podinfo-canary-template.yaml").toString())
                .assertRejected("podinfo-canary-template.yaml:1: the file is a template", "helm template");
        CliRunner.run("check", corpus("envoy/google_com_proxy.v1.json").toString())
                .assertRejected("google_com_proxy.v1.json:37: this is Envoy's v1 configuration");
        CliRunner.run("check", "../check/src/test/resources/hardening/dr-no-apiversion.yaml")
                .assertRejected("dr-no-apiversion.yaml:1: apiVersion: missing is not allowed");
        CliRunner.run("check", "../check/src/test/resources/hardening/enum-999.yaml")
                .assertRejected(
                        "enum-999.yaml:2: type: 999 is not a value of envoy.config.cluster.v3.Cluster.DiscoveryType");
    }

    @Test
    void aManifestWithoutOutlierDetectionExitsZero() {
        CliRunner.Outcome o = CliRunner.run(
                "check", corpus("istio/bookinfo-virtual-service-all-v1.yaml").toString(), "--fail-on", "warning");
        assertThat(o.exit()).isZero();
        assertThat(o.out()).contains("note    nothing-to-check");
    }

    @Test
    void duplicateClustersFailTheBuildWithEnvoysMessage() {
        CliRunner.Outcome o = CliRunner.run("check", "../check/src/test/resources/hardening/dup-clusters.yaml");
        assertThat(o.exit()).isEqualTo(1);
        assertThat(o.out())
                .contains("error   invalid-config (line 16)")
                .contains("cluster manager: duplicate cluster 'a'");
    }
}
