package dev.outlierlab.tune;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.istio.DestinationRuleReader;
import dev.outlierlab.config.istio.IstioPolicy;
import dev.outlierlab.config.istio.IstioRouting;
import dev.outlierlab.sim.scenario.RetrySpec;
import dev.outlierlab.sim.scenario.RoutingSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * The balancer and route retries a target's proxies apply to every request, which the suite's scenarios then run
 * with (those without routing of their own): for Istio, what istiod gives the rule's cluster and routes
 * ({@link IstioRouting}: {@code LEAST_REQUEST} unless {@code loadBalancer.simple} says otherwise, and the default
 * retry policy of {@code pilot/pkg/networking/core/route/retry/retry.go}, or a VirtualService's {@code retries} in
 * the same file); none for the other targets, whose files hold no route. Zones and locality failover are left
 * out: the suite's scenarios place no callers in zones.
 */
final class TargetRoutes {
    private TargetRoutes() {}

    /** The routing the target's requests go through, or null when the target adds none. */
    static RoutingSpec of(CurrentSettings current) {
        if (current.target() != EnvoyTarget.ISTIO) {
            return null;
        }
        RoutingSpec istiod = policyRouting(current);
        return RoutingSpec.builder()
                .lbPolicy(istiod.lbPolicy())
                .choiceCount(istiod.choiceCount())
                .activeRequestBias(istiod.activeRequestBias())
                .retries(istiod.retries())
                .build();
    }

    /** The note saying what the suite runs with, for the request's notes. */
    static String note(RoutingSpec r) {
        RetrySpec retry = r.retries();
        return "every suite scenario without routing of its own runs as istiod routes it: "
                + r.lbPolicy().scenarioName().replace('_', ' ') + ", "
                + (retry == null || retry.numRetries() == 0 ? "no retries" : retry.describe())
                + (retry == null || retry.numRetries() == 0
                        ? ""
                        : "; failures are the requests that failed for their callers, and the scorecard gives the"
                                + " failed attempts to hosts (what the detectors see) beside them");
    }

    private static RoutingSpec policyRouting(CurrentSettings current) {
        String source = current.source();
        if (source != null) {
            Path file = Path.of(source);
            if (Files.isRegularFile(file)) {
                try {
                    for (IstioPolicy p : DestinationRuleReader.read(Files.readString(file), source, null)
                            .policies()) {
                        if (p.displayName().equals(current.name())
                                || current.name().startsWith(p.displayName())) {
                            return p.routing();
                        }
                    }
                } catch (IOException | InputException | InvalidPathException e) {
                    // read already by the caller; istiod's defaults below
                }
            }
        }
        return IstioRouting.of(null, true, null, false);
    }
}
