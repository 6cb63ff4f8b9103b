package dev.outlierlab.tune;

import dev.outlierlab.check.EnvoyFilterPatch;
import dev.outlierlab.check.FixAdvice;
import dev.outlierlab.check.FixStyle;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.istio.DestinationRuleReader;
import dev.outlierlab.config.istio.IstioConfig;
import dev.outlierlab.config.istio.IstioPolicy;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * How {@code tune} says its findings for the target it writes: in the target's own fields (a DestinationRule's
 * {@code trafficPolicy.outlierDetection.consecutive5xxErrors}, a BackendTrafficPolicy's
 * {@code spec.healthCheck.passive.maxEjectionPercent}, a MeshCircuitBreaker's
 * {@code default.outlierDetection.detectors.totalFailures.consecutive}) through {@link FixAdvice#say}, the same
 * vocabulary {@code check}, {@code run} and {@code sweep} use, and, for the detectors no field of the target turns
 * on, the patch that can ({@link EnvoyFilterPatch} for a DestinationRule: istiod writes
 * {@code enforcing_success_rate: 0} on every cluster and has no failure-percentage field,
 * {@code pilot/pkg/networking/core/cluster_traffic_policy.go}, {@code applyOutlierDetection}).
 *
 * @param target the target the recommendation is written for
 * @param advice the target's vocabulary (a gRPC service config's through {@link FixStyle#GRPC}) and, for a DestinationRule, the EnvoyFilter's match for its cluster
 */
public record TuneWords(Target target, FixAdvice advice) {

    /**
     * The words for a request's target; for a DestinationRule, the EnvoyFilter matches the cluster of the rule in
     * {@code fromText} that the current settings came from ({@code fromText} null: the lab's placeholder rule, named as
     * the cluster).
     */
    public static TuneWords of(TuneRequest req, String fromText) {
        Target t = req.target();
        FixStyle style = t.fixStyle();
        return new TuneWords(t, new FixAdvice(style, style == FixStyle.ISTIO ? patch(req, fromText) : null));
    }

    private static EnvoyFilterPatch patch(TuneRequest req, String fromText) {
        String name = req.name();
        if (fromText != null) {
            try {
                IstioConfig rules = DestinationRuleReader.read(fromText, req.sourceLabel(), null);
                for (IstioPolicy p : rules.policies()) {
                    if (p.displayName().equals(name) || rules.policies().size() == 1) {
                        return EnvoyFilterPatch.of(p);
                    }
                }
                if (!rules.policies().isEmpty()) {
                    return EnvoyFilterPatch.of(rules.policies().get(0));
                }
            } catch (InputException e) {
                // not a DestinationRule's text (an Envoy cluster tuned for Istio): the placeholder below
            }
        }
        return new EnvoyFilterPatch(name, null, name, null, null);
    }

    /** A sentence in the target's fields (unchanged for Envoy, gRPC and the gateway). */
    public String say(String text) {
        return advice.sayMarked(text);
    }

    /** Each sentence in the target's fields. */
    public List<String> say(List<String> texts) {
        List<String> out = new ArrayList<>();
        texts.forEach(t -> out.add(say(t)));
        return out;
    }

    /** The target's name for an Envoy field ({@code outlier_detection.max_ejection_percent}), Envoy's elsewhere. */
    public String field(String envoyPath) {
        if (target.can(Target.Can.CAP_BEFORE_EJECTION) && envoyPath.equals("outlier_detection.max_ejection_percent")) {
            return target.capKey();
        }
        String path = advice.style().fieldPath(envoyPath);
        return path == null ? envoyPath.substring(envoyPath.indexOf('.') + 1) : path;
    }

    /**
     * What the target cannot turn on that would let a detector judge hosts with this traffic, said plainly with
     * the patch that can (a DestinationRule: success rate and failure percentage, through an EnvoyFilter on the
     * cluster istiod makes); empty where the target's own fields can set every detector, or no detector could run.
     */
    public List<String> cannotSet(TuneRequest req) {
        if (target != EnvoyTarget.ISTIO || req.hosts() < 2) {
            return List.of();
        }
        OutlierDetectionConfig c = req.current();
        long v = req.perHostPerInterval(c.intervalNanos());
        List<FixStyle.Change> changes = new ArrayList<>();
        List<String> said = new ArrayList<>();
        if (v >= SearchSpace.MIN_SUCCESS_RATE_VOLUME) {
            changes.add(new FixStyle.Change("outlier_detection.enforcing_success_rate", 100));
            long volume = Math.min(c.successRateRequestVolume(), v * 4 / 5);
            if (volume != c.successRateRequestVolume()) {
                changes.add(new FixStyle.Change("outlier_detection.success_rate_request_volume", volume));
            }
            if (req.hosts() < c.successRateMinimumHosts()) {
                changes.add(new FixStyle.Change("outlier_detection.success_rate_minimum_hosts", req.hosts()));
            }
            said.add("success rate: enforcing_success_rate 100, which "
                    + advice.style().whyCannot("enforcing_success_rate"));
        }
        if (v >= SearchSpace.MIN_FAILURE_PERCENTAGE_VOLUME) {
            changes.add(new FixStyle.Change("outlier_detection.enforcing_failure_percentage", 100));
            changes.add(new FixStyle.Change("outlier_detection.failure_percentage_threshold", 50));
            long volume = Math.min(c.failurePercentageRequestVolume(), v * 4 / 5);
            if (volume != c.failurePercentageRequestVolume()) {
                changes.add(new FixStyle.Change("outlier_detection.failure_percentage_request_volume", volume));
            }
            if (req.hosts() < c.failurePercentageMinimumHosts()) {
                changes.add(new FixStyle.Change("outlier_detection.failure_percentage_minimum_hosts", req.hosts()));
            }
            said.add("failure percentage: enforcing_failure_percentage 100 and failure_percentage_threshold 50, which "
                    + advice.style().whyCannot("failure_percentage_threshold"));
        }
        if (changes.isEmpty() || advice.patch() == null) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        out.add("No DestinationRule field turns on a detector that compares hosts; with " + v + " requests a host per "
                + "interval from " + (req.clients() == 1 ? "the caller" : "each caller") + " these could judge them: "
                + String.join("; ", said) + ".");
        out.add("An EnvoyFilter can set them on the cluster istiod makes for the rule"
                + (advice.patch().subset() == null
                        ? ""
                        : "'s subset " + advice.patch().subset())
                + " (kubectl apply -f); "
                + "tune --target envoy scores them on the same scenarios:");
        out.add(advice.patch().render(changes));
        return out;
    }
}
