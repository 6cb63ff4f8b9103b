package dev.outlierlab.check;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.config.yaml.YamlTree;
import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.sim.gateway.GatewayScenario;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a standalone gateway configuration for {@code check}: a YAML file with a top-level {@code gateway:}
 * section, {@code routing:} and optionally {@code profile: gateway} and {@code cluster.hosts}. It is read by
 * the scenario reader ({@link ScenarioReader#readProfiled}) as a {@code profile: gateway} scenario, so a bad
 * value gets the same one message (key, value, line, what is allowed) as in {@code run}. The endpoint count
 * is {@code cluster.hosts} when the file sets it, else unknown (then {@code --hosts}).
 */
public final class GatewayTargets {
    /** A file whose top level has a {@code gateway:} key. */
    static final Pattern GATEWAY_KEY = Pattern.compile("(?m)^gateway\\s*:");

    private static final Pattern PROFILE_KEY = Pattern.compile("(?m)^profile\\s*:");
    private static final Pattern LINE = Pattern.compile(":([0-9]+)$");

    private GatewayTargets() {}

    /**
     * Whether the text has a top-level {@code gateway:} section: a gateway configuration rather than Envoy
     * configuration or manifests.
     */
    public static boolean hasGatewaySection(String text) {
        return GATEWAY_KEY.matcher(text).find();
    }

    /** Reads the file into one target named {@code gateway}. */
    static CheckInputs.Loaded read(String text, String source) {
        Located root = YamlTree.parse(text, source);
        List<String> sets = new ArrayList<>();
        if (!PROFILE_KEY.matcher(text).find()) {
            sets.add("profile=gateway");
        }
        Located weightsNode = at(root, "routing", "weights");
        if (at(root, "cluster", "hosts") == null
                && weightsNode != null
                && weightsNode.value() instanceof List<?> weights
                && !weights.isEmpty()) {
            // the endpoint count is not in the file: read the weights as one per endpoint; --hosts is checked later
            sets.add("cluster.hosts=" + weights.size());
        }
        GatewayScenario scenario =
                ScenarioReader.readProfiled(text, source, sets).gateway();
        if (scenario == null) {
            throw new InputException(source + ": a gateway configuration (a top-level gateway: section) takes "
                    + "profile: gateway or no profile");
        }
        Map<String, Integer> lines = new HashMap<>();
        Integer hosts = null;
        if (root.value() instanceof Map<?, ?> top) {
            for (String section : List.of("gateway", "routing", "cluster")) {
                if (top.get(section) instanceof Located s) {
                    lines.put(section, line(s));
                    if (s.value() instanceof Map<?, ?> keys) {
                        keys.forEach((k, v) -> lines.put(section + "." + k, line((Located) v)));
                        if (section.equals("cluster") && keys.containsKey("hosts")) {
                            hosts = scenario.endpoints().size();
                        }
                    }
                }
            }
        }
        GatewayTarget gateway = new GatewayTarget(scenario.gateway(), scenario.routing(), lines);
        CheckTarget target = CheckTarget.builder()
                .name("gateway")
                .style(FixStyle.GATEWAY)
                .file(source)
                .line(gateway.lineOf("gateway"))
                .hasOutlierDetection(true)
                .panicThresholdPercent(0)
                .hosts(hosts)
                .gateway(gateway)
                .build();
        return new CheckInputs.Loaded(List.of(target), List.of());
    }

    /** Weighted routing needs one weight per endpoint; checked again when {@code --hosts} gives the count. */
    static void validateEndpoints(CheckTarget target, int endpoints) {
        try {
            target.gateway().routing().validateFor(endpoints);
        } catch (InvalidConfigException e) {
            throw new InputException(target.file() + ":" + target.gateway().lineOf(e.key()) + ": " + e.key() + ": "
                    + e.value() + " is not allowed; expected " + e.allowed());
        }
    }

    /** The node at {@code section.key}, or null. */
    private static Located at(Located root, String section, String key) {
        if (root.value() instanceof Map<?, ?> top
                && top.get(section) instanceof Located s
                && s.value() instanceof Map<?, ?> keys
                && keys.get(key) instanceof Located v) {
            return v;
        }
        return null;
    }

    private static int line(Located at) {
        Matcher m = LINE.matcher(at.origin());
        return m.find() ? Integer.parseInt(m.group(1)) : 1;
    }
}
