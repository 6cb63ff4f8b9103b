package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command's JSON is the document its JSON Schema in docs/schema describes: a {@code schema} key first, the
 * same summary keys for every profile, numbers as numbers. A schema that no longer fits fails here.
 */
class JsonSchemaTest {
    private static final Path SCHEMAS =
            Path.of("..", "docs", "schema").toAbsolutePath().normalize();

    private static Set<ValidationMessage> errors(String schemaFile, JsonNode document) {
        JsonSchemaFactory factory = JsonSchemaFactory.getInstance(
                SpecVersion.VersionFlag.V202012,
                builder -> builder.schemaMappers(m -> m.mapPrefix(
                        "https://outlier-lab.dev/schema/", SCHEMAS.toUri().toString())));
        JsonSchema schema = factory.getSchema(
                SchemaLocation.of(SCHEMAS.resolve(schemaFile).toUri().toString()));
        return schema.validate(document);
    }

    private static JsonNode json(String... args) {
        CliRunner.Outcome o = CliRunner.run(args);
        assertThat(o.exit()).as(o.err()).isZero();
        return o.json();
    }

    @Test
    void runOfEveryProfileIsARunDocument() {
        JsonNode envoy = json("run", "--format", "json");
        assertThat(errors("run.v1.schema.json", envoy)).isEmpty();
        assertThat(envoy.fieldNames().next()).isEqualTo("schema");
        JsonNode degraded = json("run", "../docs/examples/degraded-hosts.yaml", "--format", "json");
        assertThat(errors("run.v1.schema.json", degraded)).isEmpty();
        assertThat(degraded.get("degradations")).hasSize(12);
        JsonNode gateway = json("run", "../docs/examples/gateway-two-providers.yaml", "--format", "json");
        assertThat(errors("run.v1.schema.json", gateway)).isEmpty();
        // the same summary keys, with the same meaning, whatever the profile
        assertThat(gateway.get("summary").get("failed").asLong()).isEqualTo(20_790);
        assertThat(envoy.get("summary").get("failed").asLong()).isEqualTo(6_930);
    }

    @Test
    void sweepIsOneDocumentWithTypedValues() {
        JsonNode sweep = json("sweep", "--vary", "outlier_detection.max_ejection_percent=10,34", "--format", "json");
        assertThat(errors("sweep.v1.schema.json", sweep)).isEmpty();
        assertThat(sweep.get("runs")
                        .get(1)
                        .get("set")
                        .get("outlier_detection.max_ejection_percent")
                        .isNumber())
                .isTrue();
        assertThat(sweep.get("runs")
                        .get(1)
                        .get("summary")
                        .get("ejections_enforced")
                        .asInt())
                .isEqualTo(3);
    }

    @Test
    void checkAndReplayAreTheirDocuments(@TempDir Path dir) {
        CliRunner.Outcome check = CliRunner.run("check", "../docs/examples/search-cluster.yaml", "--format", "json");
        assertThat(errors("check.v1.schema.json", check.json())).isEmpty();
        String log = dir.resolve("access.log").toString();
        assertThat(CliRunner.run("run", "--set", "duration=60s", "--access-log", log)
                        .exit())
                .isZero();
        JsonNode replay = json("replay", log, "--format", "json");
        assertThat(errors("replay.v2.schema.json", replay)).isEmpty();
        // the v2 layout is not v1's: the log's figures and the prediction are apart, so v1's "run" is gone
        assertThat(errors("replay.v1.schema.json", replay)).isNotEmpty();
        JsonNode compared =
                json("replay", log, "--compare-set", "outlier_detection.max_ejection_percent=34", "--format", "json");
        assertThat(errors("replay.v2.schema.json", compared)).isEmpty();
        ((ObjectNode) compared.get("detectors").get(0).get("predicted").get("summary")).put("failed", 1);
        assertThat(errors("replay.v2.schema.json", compared))
                .as("the log's failures in the prediction")
                .isNotEmpty();
    }

    @Test
    void aDocumentThatBreaksItsSchemaIsCaught() {
        JsonNode run = json("run", "--set", "duration=20s", "--format", "json");
        ((ObjectNode) run.get("summary")).put("failed", "many");
        assertThat(errors("run.v1.schema.json", run)).isNotEmpty();
    }
}
