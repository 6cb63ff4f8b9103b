package dev.outlierlab.check;

import dev.outlierlab.config.envoy.EnvoyCluster;
import dev.outlierlab.config.envoy.EnvoyConfig;
import dev.outlierlab.config.envoy.EnvoyConfigReader;
import dev.outlierlab.config.istio.DestinationRuleReader;
import dev.outlierlab.config.istio.IstioConfig;
import dev.outlierlab.config.istio.IstioPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Reads a file for {@code check}: an Istio DestinationRule file when it says {@code kind: DestinationRule} or
 * an {@code apiVersion} of networking.istio.io, Envoy configuration otherwise; one {@link CheckTarget} per
 * cluster.
 */
public final class CheckTargets {
    private static final Pattern ISTIO = Pattern.compile(
            "(?m)^\\s*(-\\s+)?(kind:\\s*[\"']?DestinationRule|apiVersion:\\s*[\"']?networking\\.istio\\.io/)");

    private CheckTargets() {
    }

    /** Whether the text is Istio configuration rather than Envoy's. */
    public static boolean isIstio(String text) {
        return ISTIO.matcher(text).find();
    }

    /** Reads the file and returns its targets; a port selects port-level Istio settings. */
    public static List<CheckTarget> read(String text, String source, Integer port) {
        return isIstio(text) ? fromIstio(DestinationRuleReader.read(text, source, port))
                : fromEnvoy(EnvoyConfigReader.read(text, source));
    }

    public static List<CheckTarget> fromEnvoy(EnvoyConfig config) {
        List<CheckTarget> out = new ArrayList<>();
        for (EnvoyCluster c : config.clusters()) {
            List<CheckTarget.Problem> problems = new ArrayList<>();
            c.problems().forEach(p -> problems.add(new CheckTarget.Problem(p.error().getMessage(), p.line())));
            out.add(new CheckTarget(c.name(), FixStyle.ENVOY, c.source(), c.outlierDetectionLine(),
                    c.hasOutlierDetection(), c.outlierDetection(), c.panicThresholdPercent(), c.healthChecks(),
                    c.hosts().isEmpty() ? null : c.hosts().size(), problems, List.of(), List.of(), c.notes()));
        }
        return out;
    }

    public static List<CheckTarget> fromIstio(IstioConfig config) {
        List<CheckTarget> out = new ArrayList<>();
        for (IstioPolicy p : config.policies()) {
            out.add(new CheckTarget(p.displayName(), FixStyle.ISTIO, p.source(), p.line(), p.hasOutlierDetection(),
                    p.outlierDetection(), p.panicThresholdPercent(), null, null, List.of(), p.warnings(), p.fields(),
                    List.of()));
        }
        return out;
    }
}
