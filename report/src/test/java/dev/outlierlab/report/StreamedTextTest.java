package dev.outlierlab.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.check.CheckInputs;
import dev.outlierlab.check.CheckReport;
import dev.outlierlab.check.Severity;
import dev.outlierlab.check.StreamedReport;
import dev.outlierlab.config.InputException;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The text report written cluster by cluster ({@link StreamedReport}, each cluster's findings worked out again as it
 * is written) is the in-memory report's text, byte for byte: on every file of check's real-file corpus and the docs'
 * examples, alone and all together, and on the cases where findings are said once for several clusters.
 */
class StreamedTextTest {
    private static String inMemory(List<CheckInputs.Loaded> in, Integer hosts, Long rps) {
        return FindingsText.render(CheckReport.ofFiles("files", in, hosts, rps, EnvoyVersion.DEFAULT, 1));
    }

    private static String streamed(List<CheckInputs.Loaded> in, Integer hosts, Long rps) {
        StringBuilder sb = new StringBuilder();
        FindingsText.render(StreamedReport.of("files", in, hosts, rps, EnvoyVersion.DEFAULT, 1), sb);
        return sb.toString();
    }

    private static CheckInputs.Loaded load(String text, String name) {
        try {
            return CheckInputs.read(text, name, null, true).from(name);
        } catch (InputException e) {
            return CheckInputs.unreadable(name, e);
        }
    }

    private static List<CheckInputs.Loaded> files() throws IOException {
        List<CheckInputs.Loaded> out = new ArrayList<>();
        for (Path dir : List.of(Path.of("../check/src/test/resources/corpus"), Path.of("../docs/examples"))) {
            try (Stream<Path> walk = Files.walk(dir)) {
                for (Path p : walk.filter(Files::isRegularFile)
                        .filter(p -> p.toString().matches(".*\\.(ya?ml|json)"))
                        .sorted()
                        .toList()) {
                    out.add(load(Files.readString(p, StandardCharsets.UTF_8), p.toString()));
                }
            }
        }
        return out;
    }

    @Test
    void everyRealFileAloneAndAllTogetherGiveTheSameText() throws IOException {
        List<CheckInputs.Loaded> all = files();
        assertThat(all).hasSizeGreaterThan(50);
        for (CheckInputs.Loaded one : all) {
            assertThat(streamed(List.of(one), null, null))
                    .as(one.source())
                    .isEqualTo(inMemory(List.of(one), null, null));
            assertThat(streamed(List.of(one), 4, 400L)).as(one.source()).isEqualTo(inMemory(List.of(one), 4, 400L));
        }
        String together = streamed(all, 6, 600L);
        assertThat(together).isEqualTo(inMemory(all, 6, 600L)).contains("files not read:");
        StreamedReport r = StreamedReport.of("files", all, 6, 600L, EnvoyVersion.DEFAULT, 1);
        CheckReport m = CheckReport.ofFiles("files", all, 6, 600L, EnvoyVersion.DEFAULT, 1);
        for (Severity s : Severity.values()) {
            assertThat(r.count(s)).isEqualTo(m.count(s));
            assertThat(r.exitCode(s)).isEqualTo(m.exitCode(s));
        }
    }

    @Test
    void findingsSaidOnceForSeveralClustersAreSaidOnceStreamedToo() {
        // the subsets inherit the rule's outlierDetection: one finding from that line, for all three
        String rule = """
                apiVersion: networking.istio.io/v1
                kind: DestinationRule
                metadata: {name: reviews}
                spec:
                  host: reviews
                  trafficPolicy:
                    outlierDetection: {consecutive5xxErrors: 1, maxEjectionPercent: 100}
                  subsets:
                  - {name: v1, labels: {version: v1}}
                  - {name: v2, labels: {version: v2}, trafficPolicy: {outlierDetection: {consecutive5xxErrors: 7}}}
                  - {name: v3, labels: {version: v3}}
                """;
        List<CheckInputs.Loaded> in = List.of(load(rule, "dr.yaml"));
        String text = streamed(in, 6, null);
        assertThat(text)
                .isEqualTo(inMemory(in, 6, null))
                .contains("also applies to: reviews/v1, reviews/v3")
                .contains("see reviews for the findings it shares");
        // two clusters of one name: checked in memory, as the listing groups by name
        String twice = "[{name: a, outlier_detection: {consecutive_5xx: 1}}, {name: a, outlier_detection: {}}]";
        List<CheckInputs.Loaded> dup = List.of(load(twice, "dup.yaml"));
        assertThat(StreamedReport.of("files", dup, 4, null, EnvoyVersion.DEFAULT, 1)
                        .inMemory())
                .isNotNull();
        assertThat(streamed(dup, 4, null)).isEqualTo(inMemory(dup, 4, null));
    }
}
