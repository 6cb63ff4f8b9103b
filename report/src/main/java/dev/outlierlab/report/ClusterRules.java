package dev.outlierlab.report;

import dev.outlierlab.accesslog.ReplayGroup;
import dev.outlierlab.check.FixAdvice;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.istio.DestinationRuleController;
import dev.outlierlab.config.istio.IstioConfig;
import dev.outlierlab.config.istio.IstioPolicy;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which DestinationRule and subset istiod applies to each Envoy cluster of a mesh's access log, for a replay without
 * {@code --cluster}: each cluster name ({@code outbound|PORT|SUBSET|FQDN}, {@code model.BuildSubsetKey}) is mapped
 * as istiod builds the cluster ({@code pilot/pkg/networking/core/cluster_builder.go}, {@code buildSubsetCluster}):
 * the rule whose host covers the FQDN, and for a subset cluster the subset's {@code trafficPolicy} merged over the
 * rule's ({@code pilot/pkg/networking/util/util.go}, {@code MergeSubsetTrafficPolicy}: a subset's
 * {@code outlierDetection} replaces the rule's, without one the rule's applies), then port-level settings
 * ({@code GetPortLevelTrafficPolicy}); {@link IstioConfig#forCluster} does the lookup. A cluster no rule covers gets
 * no outlier detection from istiod (its {@code applyOutlierDetection} sets nothing without one), so it is replayed
 * with detection off and said so.
 */
public final class ClusterRules {
    /** What one cluster gets: the policy (null when no rule covers it), its scenario, and the sentence. */
    private record Entry(IstioPolicy policy, Scenario scenario, String said) {}

    private final Map<String, Entry> byCluster;
    private final DestinationRuleController controller;

    private ClusterRules(Map<String, Entry> byCluster, DestinationRuleController controller) {
        this.byCluster = byCluster;
        this.controller = controller;
    }

    /**
     * The rules for the log's clusters; null when no cluster of the log is named as Istio names its clusters or none
     * of those is covered by a rule of the file (then the one rule chosen as without a log applies to every cluster).
     */
    public static ClusterRules of(IstioConfig rules, Scenario base, List<ReplayGroup> groups) {
        Map<String, Entry> out = new LinkedHashMap<>();
        boolean covered = false;
        for (ReplayGroup g : groups) {
            String cluster = g.cluster();
            if (out.containsKey(cluster)) {
                continue;
            }
            IstioPolicy p;
            try {
                p = rules.forCluster(cluster);
            } catch (InputException e) {
                out.put(
                        cluster,
                        new Entry(
                                null,
                                off(base),
                                "no DestinationRule of " + rules.source() + " covers " + cluster
                                        + ": istiod gives it no outlier detection, so nothing is ejected there"));
                continue;
            }
            if (p == null) {
                // PassthroughCluster, BlackHoleCluster, InboundPassthroughClusterIpv4: no service's cluster, and
                // istiod gives them no outlier detection
                out.put(
                        cluster,
                        new Entry(
                                null,
                                off(base),
                                (cluster.isEmpty() ? "the log's lines without a cluster" : cluster)
                                        + " is not a service's cluster that a DestinationRule configures: istiod gives"
                                        + " it no outlier detection, so nothing is ejected there"));
                continue;
            }
            covered = true;
            if (!p.hasOutlierDetection()) {
                out.put(
                        cluster,
                        new Entry(
                                p,
                                off(base),
                                "DestinationRule " + p.displayName() + " (" + p.scope() + ") has no outlierDetection:"
                                        + " istiod gives " + cluster + " none, so nothing is ejected there"));
                continue;
            }
            out.put(
                    cluster,
                    new Entry(
                            p,
                            p.toScenario(base, 1),
                            "settings: DestinationRule " + p.rule()
                                    + (p.subset() == null ? "" : ", subset " + p.subset())
                                    + (p.port() == null ? "" : ", port " + p.port()) + ", from " + p.scope()
                                    + ".outlierDetection (" + p.source() + ":" + p.line() + ")"
                                    + (p.subset() != null && !p.scope().startsWith("spec.subsets")
                                            ? ", the rule's: the subset sets none of its own"
                                            : "")));
        }
        return covered ? new ClusterRules(out, rules.controller()) : null;
    }

    /** The scenario a cluster's detector replays with (its hosts and span set by the replay). */
    public Scenario scenario(String cluster) {
        return byCluster.get(cluster).scenario();
    }

    /** The sentence that says which rule applies to the cluster, or that none does. */
    public String said(String cluster) {
        Entry e = byCluster.get(cluster);
        return e == null ? null : e.said();
    }

    /** How the cluster's fixes are said: the rule's fields and an EnvoyFilter matching its subset's cluster. */
    public FixAdvice advice(String cluster, FixAdvice fallback) {
        Entry e = byCluster.get(cluster);
        return e == null || e.policy() == null ? fallback : FixAdvice.of(e.policy(), controller);
    }

    /** The base scenario with every detector unenforced, as a cluster without outlier detection behaves. */
    private static Scenario off(Scenario base) {
        OutlierDetectionConfig.Builder b = OutlierDetectionConfig.builder();
        for (OutlierSetting s : OutlierSetting.values()) {
            if (s.envoyName().startsWith("enforcing_")) {
                b.set(s, 0);
            }
        }
        return base.toBuilder()
                .name("no outlier detection")
                .outlierDetection(b.build())
                .build();
    }
}
