package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.config.scenario.GatewayComparisons;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run} takes the browser lab's Export JSON as it is: the file's {@code inputs} are the scenario, its
 * results are ignored, and running it gives the same figures again (the page side of this round trip is
 * {@code GatewayPageBrowserTest.exportJsonIsAFileThatRunAccepts}).
 */
class LabExportRunTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void aGatewayExportRunsAgainWithTheSameFigures() throws IOException {
        GatewayComparisons.Comparison dead = GatewayComparisons.all().get(1);
        List<String> args = new ArrayList<>(List.of("run", "--format", "json"));
        dead.overrides().forEach(s -> {
            args.add("--set");
            args.add(s);
        });
        CliRunner.Outcome first = CliRunner.run(args.toArray(new String[0]));
        assertThat(first.exit()).as(first.err()).isZero();
        // the shape gateway.js writes
        ObjectNode export = JSON.createObjectNode();
        export.put("tool", "outlier-lab");
        export.put("profile", "gateway");
        export.put("model", "the gateway profile (spec gateway-profile): the seed's weakest-link remover");
        export.put("link", "http://127.0.0.1:8080/#scenario=%7B%22profile%22%3A%22gateway%22%7D");
        export.set("inputs", first.json().get("scenario"));
        export.set("summary", first.json().get("summary"));
        export.set("events", first.json().get("events"));
        export.set("notes", first.json().get("notes"));
        export.putArray("timeline");
        Path file = dir.resolve("outlier-lab-gateway-bookstore-search.json");
        Files.writeString(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(export));

        CliRunner.Outcome again = CliRunner.run("run", file.toString(), "--format", "json");
        assertThat(again.exit()).as(again.err()).isZero();
        JsonNode j = again.json();
        assertThat(j.get("scenario")).isEqualTo(first.json().get("scenario"));
        assertThat(j.get("summary")).isEqualTo(first.json().get("summary"));
        assertThat(j.at("/summary/ejections/consecutive").asLong()).isEqualTo(7);
        assertThat(j.at("/events/0/time_ns").asLong()).isEqualTo(30_006_666_666L);

        CliRunner.Outcome text = CliRunner.run("run", file.toString());
        assertThat(text.exit()).as(text.err()).isZero();
        assertThat(text.out()).contains("profile gateway", "30.007 s: azure (process 0) 3 failures in a row");
    }

    @Test
    void anExportsInputsAreCheckedLikeAnyScenario() throws IOException {
        Path file = dir.resolve("bad-export.json");
        Files.writeString(
                file,
                "{\"tool\": \"outlier-lab\",\n \"inputs\": {\"profile\": \"gateway\",\n"
                        + "  \"gateway\": {\"mode\": \"loud\"}}}\n");
        CliRunner.Outcome o = CliRunner.run("run", file.toString());
        assertThat(o.exit()).isEqualTo(2);
        assertThat(o.err()).contains("bad-export.json:3:", "gateway.mode", "\"loud\"", "off, shadow, prod");
    }
}
