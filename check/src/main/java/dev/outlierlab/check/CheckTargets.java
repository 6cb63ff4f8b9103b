package dev.outlierlab.check;

import dev.outlierlab.config.envoy.EnvoyCluster;
import dev.outlierlab.config.envoy.EnvoyConfig;
import dev.outlierlab.config.istio.IstioConfig;
import dev.outlierlab.config.istio.IstioPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Turns what the readers give (Envoy clusters, translated DestinationRules) into {@link CheckTarget}s, one per
 * cluster. Which reader a file goes to is {@link CheckInputs}'s choice.
 */
public final class CheckTargets {

    private static final Pattern IPV4 = Pattern.compile("[0-9]{1,3}(\\.[0-9]{1,3}){3}");

    private CheckTargets() {}

    /** Reads the file and returns its targets; a port selects port-level Istio settings. See {@link CheckInputs}. */
    public static List<CheckTarget> read(String text, String source, Integer port) {
        return CheckInputs.read(text, source, port, false).targets();
    }

    public static List<CheckTarget> fromEnvoy(EnvoyConfig config) {
        List<CheckTarget> out = new ArrayList<>();
        for (EnvoyCluster c : config.clusters()) {
            List<CheckTarget.Problem> problems = new ArrayList<>();
            c.problems()
                    .forEach(p -> problems.add(new CheckTarget.Problem(
                            p.envoyAccepts()
                                    ? p.key() + " " + p.error().value()
                                            + " is read as 0 ms: Envoy accepts it and truncates it to whole "
                                            + "milliseconds (DurationUtil::durationToMilliseconds) and runs with a 0 ms "
                                            + p.key().substring(p.key().indexOf('.') + 1)
                                            + ", which the lab does not simulate"
                                    : p.error().getMessage(),
                            p.line(),
                            p.envoyAccepts())));
            Integer hosts = c.hosts().isEmpty() ? null : c.hosts().size();
            List<String> notes = new ArrayList<>(c.notes());
            boolean atLeast = false;
            if (c.discoveryType().equals("STRICT_DNS") && c.hosts().stream().anyMatch(h -> !isAddressLiteral(h))) {
                // STRICT_DNS makes a host of every address each name resolves to: the file gives names, each at least
                // one host, so a lower bound
                atLeast = true;
                notes.add("STRICT_DNS: each of the " + c.hosts().size() + " name(s) in load_assignment becomes as many "
                        + "hosts as it has DNS addresses, so the cluster has at least "
                        + c.hosts().size()
                        + (c.hosts().size() == 1 ? " host" : " hosts") + "; the findings that need the exact count are "
                        + "left out: pass --hosts N");
            }
            out.add(CheckTarget.builder()
                    .name(c.name())
                    .style(FixStyle.ENVOY)
                    .file(c.source())
                    .line(c.outlierDetectionLine())
                    .hasOutlierDetection(c.hasOutlierDetection())
                    .config(c.outlierDetection())
                    .panicThresholdPercent(c.panicThresholdPercent())
                    .healthChecks(c.healthChecks())
                    .hosts(hosts)
                    .problems(problems)
                    .notes(notes)
                    .hostsAtLeast(atLeast)
                    .routing(c.routing())
                    .build());
        }
        return out;
    }

    /** Whether a host name from the file ({@code address:port}) is an IP address rather than a DNS name. */
    static boolean isAddressLiteral(String host) {
        String address = host.contains("]")
                ? host.substring(0, host.indexOf(']') + 1)
                : host.lastIndexOf(':') > 0 && host.indexOf(':') == host.lastIndexOf(':')
                        ? host.substring(0, host.lastIndexOf(':'))
                        : host;
        return IPV4.matcher(address).matches()
                || address.startsWith("[")
                || address.chars().filter(ch -> ch == ':').count() >= 2;
    }

    public static List<CheckTarget> fromIstio(IstioConfig config) {
        List<CheckTarget> out = new ArrayList<>();
        for (IstioPolicy p : config.policies()) {
            out.add(CheckTarget.builder()
                    .name(p.displayName())
                    .style(FixStyle.ISTIO)
                    .file(p.source())
                    .line(p.line())
                    .hasOutlierDetection(p.hasOutlierDetection())
                    .config(p.outlierDetection())
                    .panicThresholdPercent(p.panicThresholdPercent())
                    .warnings(p.warnings())
                    .translation(p.fields())
                    .notes(p.notes())
                    .routing(p.routing())
                    .build());
        }
        return out;
    }
}
