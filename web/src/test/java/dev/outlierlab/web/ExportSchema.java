package dev.outlierlab.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.nio.file.Path;
import java.util.Set;

/**
 * The browser lab's Export JSON checked against its documented JSON Schema,
 * {@code docs/schema/lab-export.v1.schema.json} (with {@code summary.v1.schema.json} beside it), as the CLI's
 * {@code JsonSchemaTest} checks each command's document.
 */
final class ExportSchema {
    private static final Path SCHEMAS =
            Path.of("..", "docs", "schema").toAbsolutePath().normalize();

    private ExportSchema() {}

    /** The schema's complaints about {@code document}; empty when it conforms. */
    static Set<ValidationMessage> errors(JsonNode document) {
        JsonSchemaFactory factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
        JsonSchema schema = factory.getSchema(SchemaLocation.of(
                SCHEMAS.resolve("lab-export.v1.schema.json").toUri().toString()));
        return schema.validate(document);
    }
}
