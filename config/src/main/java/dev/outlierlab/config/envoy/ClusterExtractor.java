package dev.outlierlab.config.envoy;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Duration;
import com.google.protobuf.Message;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.sim.scenario.HealthCheckSpec;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.cluster.v3.OutlierDetection;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.Locality;
import io.envoyproxy.envoy.config.endpoint.v3.Endpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns one parsed {@code Cluster} into an {@link EnvoyCluster}, applying Envoy's defaults and its validation
 * rules: the {@code OutlierDetection} fields the engine models ({@link OutlierSetting}, read generically by
 * field name), {@code healthy_panic_threshold} (a {@code type.v3.Percent} from 0 to 100, default 50), the
 * first health check ({@link HealthCheckExtractor}) and the endpoints of {@code load_assignment}.
 */
final class ClusterExtractor {
    private ClusterExtractor() {}

    static EnvoyCluster extract(Cluster c, Located node, String source, List<String> lines) {
        int line = SourceLines.lineOf(node);
        if (c.getName().isEmpty()) {
            throw new InputException(node.origin() + ": a cluster needs a name (Envoy rejects a cluster without one)");
        }
        List<InvalidConfigException> problems = new ArrayList<>();
        List<InvalidConfigException> unsimulated = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        Located odNode = EnvoyConfigReader.child(node, "outlier_detection", "outlierDetection");
        OutlierDetectionConfig od = null;
        if (c.hasOutlierDetection()) {
            od = outlierDetection(c.getOutlierDetection(), problems, unsimulated, notes);
            od = newerFields(od, odNode, problems);
            if (c.getOutlierDetection().getMonitorsCount() > 0) {
                notes.add("outlier_detection.monitors (extension monitors) are not modelled");
            }
        }
        double panic = EnvoyCluster.DEFAULT_PANIC_THRESHOLD;
        if (c.getCommonLbConfig().hasHealthyPanicThreshold()) {
            double v = c.getCommonLbConfig().getHealthyPanicThreshold().getValue();
            if (v >= 0 && v <= 100) {
                panic = v;
            } else {
                problems.add(new InvalidConfigException(
                        "common_lb_config.healthy_panic_threshold.value",
                        Double.toString(v),
                        "a percentage from 0 to 100 (0 disables panic mode)"));
            }
        }
        HealthCheckSpec health = HealthCheckExtractor.extract(c, problems, notes);
        String type = switch (c.getClusterDiscoveryTypeCase()) {
            case TYPE -> c.getType().name();
            case CLUSTER_TYPE -> c.getClusterType().getName();
            default -> "STATIC";
        };
        List<String> hosts = List.of();
        List<Integer> priorities = new ArrayList<>();
        List<Locality> localities = new ArrayList<>();
        if (type.equals("EDS") || type.equals("ORIGINAL_DST")) {
            if (c.getLoadAssignment().getEndpointsCount() > 0) {
                notes.add("load_assignment is not where a " + type + " cluster's hosts come from; they arrive at run "
                        + "time, so the file's endpoints are not counted");
            }
        } else {
            hosts = hosts(c, notes, priorities, localities);
            if (type.equals("LOGICAL_DNS") && hosts.size() == 1) {
                notes.add("a LOGICAL_DNS cluster has one host at a time");
            }
        }
        int odLine = odNode == null
                ? line
                : SourceLines.keyLine(lines, SourceLines.lineOf(odNode), "outlier_detection", "outlierDetection");
        List<EnvoyCluster.Problem> located = new ArrayList<>();
        for (InvalidConfigException p : problems) {
            located.add(new EnvoyCluster.Problem(p, problemLine(node, p.key(), odLine)));
        }
        for (InvalidConfigException p : unsimulated) {
            located.add(new EnvoyCluster.Problem(p, problemLine(node, p.key(), odLine), true));
        }
        return new EnvoyCluster(
                c.getName(),
                source,
                line,
                odLine,
                type,
                c.hasOutlierDetection(),
                located.isEmpty() ? od : null,
                panic,
                health,
                hosts,
                located,
                notes,
                RoutingExtractor.extract(c, hosts, priorities, localities));
    }

    /**
     * Fields of a newer Envoy than the bundled API that the lab reads by name from the file: {@code
     * detect_degraded_hosts} (Envoy 1.38, {@code OutlierDetection} field 26). The proto reader has read past them.
     */
    private static OutlierDetectionConfig newerFields(
            OutlierDetectionConfig od, Located odNode, List<InvalidConfigException> problems) {
        if (od == null || odNode == null || !(odNode.value() instanceof Map<?, ?> map)) {
            return od;
        }
        for (OutlierSetting s : OutlierSetting.values()) {
            if (!s.newerThanBundledApi()) {
                continue;
            }
            Object at = map.get(s.envoyName());
            if (at == null) {
                at = map.get(camel(s.envoyName()));
            }
            if (!(at instanceof Located v) || v.value() == null) {
                continue;
            }
            Object value = v.value();
            if (value instanceof Boolean flag || "true".equals(value) || "false".equals(value)) {
                return od.toBuilder()
                        .set(s, Boolean.TRUE.equals(value) || "true".equals(value))
                        .build();
            }
            problems.add(new InvalidConfigException(
                    "outlier_detection." + s.envoyName(), String.valueOf(value), "true or false"));
        }
        return od;
    }

    /** Every modelled field that is set, then the builder's checks; each rejected field becomes a problem. */
    private static OutlierDetectionConfig outlierDetection(
            OutlierDetection od,
            List<InvalidConfigException> problems,
            List<InvalidConfigException> unsimulated,
            List<String> notes) {
        Descriptor d = OutlierDetection.getDescriptor();
        OutlierDetectionConfig.Builder b = OutlierDetectionConfig.builder();
        for (OutlierSetting s : OutlierSetting.values()) {
            if (s.newerThanBundledApi()) {
                continue; // read by name from the file (newerFields), the bundled proto has no such field
            }
            FieldDescriptor f = d.findFieldByName(s.envoyName());
            if (f == null) {
                throw new IllegalStateException("Envoy's OutlierDetection has no field " + s.envoyName());
            }
            if (f.getJavaType() != FieldDescriptor.JavaType.MESSAGE) {
                if (Boolean.TRUE.equals(od.getField(f))) {
                    b.set(s, true);
                }
                continue;
            }
            if (!od.hasField(f)) {
                continue;
            }
            Message m = (Message) od.getField(f);
            if (m instanceof Duration dur) {
                Long nanos = nanos(dur, s, problems, unsimulated, notes);
                if (nanos != null) {
                    b.set(s, nanos);
                }
            } else {
                Object v = m.getField(m.getDescriptorForType().findFieldByName("value"));
                b.set(s, v instanceof Boolean flag ? (flag ? 1 : 0) : Integer.toUnsignedLong((Integer) v));
            }
        }
        // The builder stops at the first field Envoy rejects; set each aside in turn to find them all.
        for (int i = 0; i <= OutlierSetting.values().length; i++) {
            try {
                return b.build();
            } catch (InvalidConfigException e) {
                problems.add(new InvalidConfigException("outlier_detection." + e.key(), e.value(), e.allowed()));
                OutlierSetting s = OutlierSetting.byEnvoyName(e.key());
                if (s == null) {
                    return null;
                }
                b.unset(s);
            }
        }
        return null;
    }

    /**
     * Envoy reads these durations in whole milliseconds ({@code PROTOBUF_GET_MS_OR_DEFAULT}, which truncates through
     * {@code DurationUtil::durationToMilliseconds}); so does the lab, with a note saying so.
     */
    private static Long nanos(
            Duration d,
            OutlierSetting s,
            List<InvalidConfigException> problems,
            List<InvalidConfigException> unsimulated,
            List<String> notes) {
        BigInteger n = BigInteger.valueOf(d.getSeconds())
                .multiply(BigInteger.valueOf(Durations.SECOND))
                .add(BigInteger.valueOf(d.getNanos()));
        String shown = d.getSeconds()
                + (d.getNanos() == 0
                        ? ""
                        : String.format(Locale.ROOT, ".%09d", Math.abs(d.getNanos()))
                                .replaceAll("0+$", ""))
                + "s";
        if (n.signum() < 0 || n.compareTo(BigInteger.valueOf(Durations.MAX_NANOS)) > 0) {
            problems.add(new InvalidConfigException(
                    "outlier_detection." + s.envoyName(), shown, s.allowedRange() + " (at most 10 years)"));
            return null;
        }
        long nanos = n.longValueExact();
        long truncated = nanos - nanos % Durations.MILLISECOND;
        if (truncated == 0 && nanos > 0 && s != OutlierSetting.MAX_EJECTION_TIME_JITTER) {
            // Envoy accepts it (validateDuration only refuses negative or out-of-range values) and truncates it
            unsimulated.add(new InvalidConfigException(
                    "outlier_detection." + s.envoyName(),
                    shown,
                    "a duration of at least 1ms for the lab (Envoy accepts " + shown + " but reads whole milliseconds, "
                            + "DurationUtil::durationToMilliseconds: a 0 ms " + s.envoyName()
                            + ", which the lab does not "
                            + "simulate)"));
            return null;
        }
        if (truncated != nanos) {
            notes.add("outlier_detection." + s.envoyName() + " " + shown + " is read as "
                    + truncated / Durations.MILLISECOND + " ms: Envoy reads it in whole milliseconds and truncates"
                    + " the rest (DurationUtil::durationToMilliseconds), and the lab does the same");
        }
        return truncated;
    }

    private static List<String> hosts(
            Cluster c, List<String> notes, List<Integer> priorities, List<Locality> localities) {
        List<String> names = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean weighted = false;
        for (LocalityLbEndpoints group : c.getLoadAssignment().getEndpointsList()) {
            for (LbEndpoint lb : group.getLbEndpointsList()) {
                priorities.add(group.getPriority());
                localities.add(group.getLocality());
                weighted |= lb.hasLoadBalancingWeight()
                        && lb.getLoadBalancingWeight().getValue() != 1;
                String name = lb.getHostIdentifierCase() == LbEndpoint.HostIdentifierCase.ENDPOINT_NAME
                        ? lb.getEndpointName()
                        : endpointName(lb.getEndpoint());
                int n = seen.merge(name, 1, Integer::sum);
                names.add(n == 1 ? name : name + "#" + n);
            }
        }
        if (weighted) {
            notes.add("load_balancing_weight is not modelled; the lab spreads requests evenly");
        }
        return names;
    }

    private static String endpointName(Endpoint e) {
        if (!e.getHostname().isEmpty()) {
            return e.getHostname();
        }
        Address a = e.getAddress();
        return switch (a.getAddressCase()) {
            // Envoy's Address::asString: an IPv6 address in brackets, [::1]:80 (Ipv6Instance), else address:port
            case SOCKET_ADDRESS ->
                bracketed(a.getSocketAddress().getAddress()) + ":"
                        + (a.getSocketAddress().hasNamedPort()
                                ? a.getSocketAddress().getNamedPort()
                                : Integer.toString(a.getSocketAddress().getPortValue()));
            case PIPE -> a.getPipe().getPath();
            case ENVOY_INTERNAL_ADDRESS -> a.getEnvoyInternalAddress().getServerListenerName();
            default -> "endpoint";
        };
    }

    private static String bracketed(String address) {
        return address.indexOf(':') >= 0 && !address.startsWith("[") ? "[" + address + "]" : address;
    }

    /** The line of the field a problem names (e.g. outlier_detection.max_ejection_percent), else the block's. */
    private static int problemLine(Located cluster, String key, int fallback) {
        Located current = cluster;
        for (String part : key.replaceAll("\\[[0-9]+\\]", "").split("\\.")) {
            Located next = EnvoyConfigReader.child(current, part, camel(part));
            if (next == null && current.value() instanceof List<?> list && !list.isEmpty()) {
                next = EnvoyConfigReader.child((Located) list.get(0), part, camel(part));
            }
            if (next == null) {
                return current == cluster ? fallback : SourceLines.lineOf(current);
            }
            current = next;
        }
        return SourceLines.lineOf(current);
    }

    /** A proto field name as its JSON name: {@code outlier_detection} -> {@code outlierDetection}. */
    static String camel(String snake) {
        StringBuilder sb = new StringBuilder();
        boolean up = false;
        for (char ch : snake.toCharArray()) {
            if (ch == '_') {
                up = true;
            } else {
                sb.append(up ? Character.toUpperCase(ch) : ch);
                up = false;
            }
        }
        return sb.toString();
    }
}
