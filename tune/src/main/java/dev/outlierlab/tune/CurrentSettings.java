package dev.outlierlab.tune;

import dev.outlierlab.check.CheckInputs;
import dev.outlierlab.check.CheckTarget;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The settings {@code tune} starts from, read from what {@code --from} names: anything {@code check} reads (an Envoy
 * cluster or config dump, an Istio DestinationRule, an Envoy Gateway BackendTrafficPolicy, a Kuma MeshCircuitBreaker)
 * through {@link CheckInputs}, or a lab scenario through {@link ScenarioReader}; with no file, Envoy's defaults for an
 * Envoy cluster. The file says the target, and may say the hosts (endpoints, a ServiceEntry, a scenario's cluster)
 * and the rate (a scenario's traffic).
 *
 * @param hosts   the hosts the file gives, or null
 * @param rps     the rate the file gives (a scenario), or null
 * @param version the Envoy release the file names (a scenario's {@code envoy_version}), or null
 */
public record CurrentSettings(String name, String source, Target target, OutlierDetectionConfig config,
                              double panicThresholdPercent, Integer hosts, Long rps, EnvoyVersion version) {

    private static final Pattern SCENARIO = Pattern.compile(
            "(?m)^(traffic|faults|duration|seed|envoy_version|profile)\\s*:");

    /** Envoy's defaults for an Envoy cluster named {@code name}, with the default panic threshold. */
    public static CurrentSettings defaults(String name) {
        return new CurrentSettings(name, null, Target.ENVOY, OutlierDetectionConfig.defaults(), 50, null, null, null);
    }

    /**
     * With no file, for a target: Envoy's default values written as that target's resource and read back (so Istio's
     * success rate is off and its panic threshold 0, as istiod sends them).
     */
    public static CurrentSettings defaults(String name, Target target, int hosts) {
        if (target == Target.ENVOY) {
            return defaults(name);
        }
        double panic = target == Target.ISTIO ? 0 : 50;
        Target.Written w = target.write(Setting.of(OutlierDetectionConfig.defaults()), name, Math.max(1, hosts),
                OutlierDetectionConfig.defaults(), panic);
        return new CurrentSettings(name, null, target, w.config(), w.panicThresholdPercent(), null, null, null);
    }

    /** Reads a file's text; {@code source} names it in messages. */
    public static CurrentSettings read(String text, String source) {
        if (SCENARIO.matcher(text).find()) {
            ScenarioReader.Profiled p = ScenarioReader.readProfiled(text, source, List.of());
            if (p.isGateway()) {
                throw new InputException(source + ": a gateway-profile scenario; tune searches Envoy's outlier detection "
                        + "(targets envoy, istio, envoy-gateway, kuma), not the gateway profile's settings");
            }
            Scenario s = p.envoy().scenario();
            return new CurrentSettings(s.name(), source, Target.ENVOY, s.outlierDetection(),
                    s.cluster().panicThresholdPercent(), p.envoy().hostsGiven() ? s.cluster().size() : null,
                    s.traffic().rps(), s.envoyVersion());
        }
        CheckInputs.Loaded loaded = CheckInputs.read(text, source, null, false);
        List<CheckTarget> targets = new ArrayList<>();
        for (CheckTarget t : loaded.targets()) {
            if (t.config() != null) {
                targets.add(t);
            }
        }
        if (targets.isEmpty()) {
            throw new InputException(source + ": no cluster with outlier detection to tune here"
                    + (loaded.targets().isEmpty() ? "" : " (the settings found are rejected: run outlier-lab check "
                    + source + ")"));
        }
        if (targets.size() > 1) {
            List<String> names = targets.stream().map(CheckTarget::name).toList();
            throw new InputException(source + ": " + targets.size() + " clusters with outlier detection; tune one at a "
                    + "time (split the file): " + String.join(", ", names.subList(0, Math.min(6, names.size())))
                    + (names.size() > 6 ? ", ..." : ""));
        }
        CheckTarget t = targets.get(0);
        Target target = switch (t.style()) {
            case ENVOY -> Target.ENVOY;
            case ISTIO, FLAGGER -> Target.ISTIO;
            case ENVOY_GATEWAY -> Target.ENVOY_GATEWAY;
            case KUMA -> Target.KUMA;
            case KGATEWAY, KGATEWAY_POLICY, ADMIRAL -> throw new InputException(source + ": "
                    + t.style().translatedBy() + " translates "
                    + "these settings; tune writes Envoy, Istio (istiod), Envoy Gateway and Kuma settings only");
            case GATEWAY -> throw new InputException(source + ": a gateway configuration; tune searches Envoy's outlier "
                    + "detection (targets envoy, istio, envoy-gateway, kuma), not the gateway profile's settings");
        };
        return new CurrentSettings(t.name(), source, target, t.config(), t.panicThresholdPercent(), t.hosts(), null, null);
    }
}
