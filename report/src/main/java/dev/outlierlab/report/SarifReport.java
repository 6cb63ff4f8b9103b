package dev.outlierlab.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.check.CheckReport;
import dev.outlierlab.check.CheckRule;
import dev.outlierlab.check.Finding;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code check --format sarif}: SARIF 2.1.0, so that CI systems (GitHub code scanning, GitLab, Azure DevOps)
 * show findings on the line of the outlier-detection block. One run; the driver lists every {@link CheckRule}
 * (stable ids); each result has its ruleId, level, message (with the suggested fix), the file's URI and
 * line, and the numbers as properties.
 */
public final class SarifReport {
    public static final String SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";
    public static final String VERSION = "2.1.0";
    private static final String TOOL_VERSION = "0.1.0";

    private SarifReport() {}

    public static ObjectNode toTree(CheckReport report) {
        ObjectNode root = ResultJson.mapper().createObjectNode();
        root.put("$schema", SCHEMA);
        root.put("version", VERSION);
        ObjectNode run = root.putArray("runs").addObject();
        ObjectNode driver = run.putObject("tool").putObject("driver");
        driver.put("name", "outlier-lab");
        driver.put("version", TOOL_VERSION);
        driver.put("semanticVersion", TOOL_VERSION);
        ArrayNode rules = driver.putArray("rules");
        List<CheckRule> all = CheckRule.all();
        for (CheckRule r : all) {
            ObjectNode rule = rules.addObject();
            rule.put("id", r.id());
            rule.put("name", camel(r.id()));
            rule.putObject("shortDescription").put("text", r.title());
            rule.putObject("fullDescription").put("text", r.help());
            rule.putObject("help").put("text", r.help());
            rule.putObject("defaultConfiguration")
                    .put("level", r.defaultSeverity().level());
        }
        ArrayNode results = run.putArray("results");
        for (Finding f : report.findings()) {
            ObjectNode result = results.addObject();
            result.put("ruleId", f.rule().id());
            result.put("ruleIndex", all.indexOf(f.rule()));
            result.put("level", f.severity().level());
            List<String> where = new ArrayList<>();
            if (!f.target().isEmpty()) {
                where.add(f.target());
            }
            where.addAll(f.alsoAppliesTo());
            String text = (where.isEmpty() ? "" : "[" + String.join(", ", where) + "] ")
                    + f.message()
                    + (f.fix() == null ? "" : "\nSuggested fix:\n" + f.fix());
            result.putObject("message").put("text", text);
            ObjectNode physical = result.putArray("locations").addObject().putObject("physicalLocation");
            physical.putObject("artifactLocation").put("uri", uri(f.file()));
            physical.putObject("region").put("startLine", Math.max(1, f.line()));
            ObjectNode props = result.putObject("properties");
            if (!f.target().isEmpty()) {
                props.put("cluster", f.target());
            }
            if (!f.alsoAppliesTo().isEmpty()) {
                ArrayNode also = props.putArray("also_applies_to");
                f.alsoAppliesTo().forEach(also::add);
            }
            props.set("numbers", ResultJson.mapper().valueToTree(f.numbers()));
            if (f.fix() != null) {
                props.put("fix", f.fix());
            }
        }
        return root;
    }

    public static String toJson(CheckReport report) {
        return ResultJson.write(toTree(report));
    }

    /** A relative path stays relative (CI tools resolve it against the checkout); an absolute one is a file URI. */
    static String uri(String file) {
        String slashed = file.replace('\\', '/');
        try {
            if (Path.of(file).isAbsolute()) {
                return Path.of(file).toUri().toString();
            }
            return new URI(null, null, slashed, null).toASCIIString();
        } catch (URISyntaxException | RuntimeException e) {
            return slashed;
        }
    }

    private static String camel(String id) {
        StringBuilder sb = new StringBuilder();
        for (String part : id.split("-")) {
            sb.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
        }
        return sb.toString();
    }
}
