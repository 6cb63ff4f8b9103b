package dev.outlierlab.config.grpc;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.Wording;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.config.yaml.YamlTree;
import dev.outlierlab.engine.grpc.FailurePercentageEjection;
import dev.outlierlab.engine.grpc.GrpcImplementation;
import dev.outlierlab.engine.grpc.GrpcOutlierConfig;
import dev.outlierlab.engine.grpc.SuccessRateEjection;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a gRPC service config (JSON) for its outlier detection: {@code loadBalancingConfig}, a list of one-key
 * policies of which gRPC uses the first it knows, must reach {@code outlier_detection_experimental} with its
 * {@code childPolicy}; a document that is that one policy ({@code {"outlier_detection_experimental": {...}}}) is
 * read the same way. Keys are gRPC's camelCase ({@code interval}, {@code baseEjectionTime}, {@code
 * maxEjectionTime}, {@code successRateEjection} with {@code stdevFactor}, {@code enforcementPercentage}, {@code
 * minimumHosts}, {@code requestVolume}; {@code failurePercentageEjection} with {@code threshold} and the same
 * three), durations are {@code google.protobuf.Duration}'s JSON strings ({@code "10s"}, {@code "0.5s"}), and the
 * cap is {@code maxEjectionPercentage} in grpc-java ({@code OutlierDetectionLoadBalancerProvider}) but
 * {@code maxEjectionPercent} in grpc-go and C-core: each library ignores the other's spelling, and so does the
 * lab, with a note. Everything else is refused with one message naming the key and what gRPC allows (A50's
 * "Validation"; the libraries' parsers ignore unknown keys, the lab does not, as a typo would silently fall back
 * to a default).
 */
public final class ServiceConfigReader {
    public static final String POLICY = "outlier_detection_experimental";
    /** Policies gRPC ships: one of these before outlier detection in the list is used instead of it. */
    private static final Set<String> KNOWN = Set.of(
            "pick_first",
            "round_robin",
            "weighted_round_robin",
            "least_request_experimental",
            "ring_hash_experimental",
            "grpclb",
            "priority_experimental",
            "weighted_target_experimental",
            "cds_experimental",
            "xds_cluster_impl_experimental",
            "rls_experimental");

    private static final Set<String> TOP = Set.of(
            "interval",
            "baseEjectionTime",
            "maxEjectionTime",
            "maxEjectionPercent",
            "maxEjectionPercentage",
            "successRateEjection",
            "failurePercentageEjection",
            "childPolicy");
    private static final Set<String> SR =
            Set.of("stdevFactor", "enforcementPercentage", "minimumHosts", "requestVolume");
    private static final Set<String> FP = Set.of("threshold", "enforcementPercentage", "minimumHosts", "requestVolume");
    private static final Pattern DURATION = Pattern.compile("(-?)(\\d{1,12})(?:\\.(\\d{1,9}))?s");

    private ServiceConfigReader() {}

    /** Reads {@code text} (from {@code source}) for {@code implementation}'s key spellings. */
    public static GrpcSettings read(String text, String source, GrpcImplementation implementation) {
        Located root = YamlTree.parse(text, source);
        Located od = policy(root);
        String at = "loadBalancingConfig." + POLICY;
        Map<String, Located> m = map(od, at, TOP);
        List<String> notes = new ArrayList<>();
        Located child = m.get("childPolicy");
        if (child == null) {
            throw new InputException(od.origin() + ": " + at + ".childPolicy: missing; gRPC requires a child policy, "
                    + "such as \"childPolicy\": [{\"round_robin\": {}}]");
        }
        String childName = childPolicy(child, at + ".childPolicy");
        if (!childName.equals("round_robin")) {
            notes.add("childPolicy " + childName + ": the lab routes round-robin over the endpoints not ejected, as"
                    + " round_robin does");
        }
        GrpcOutlierConfig d = GrpcOutlierConfig.defaults();
        long interval = duration(m.get("interval"), at + ".interval", d.intervalNanos());
        long base = duration(m.get("baseEjectionTime"), at + ".baseEjectionTime", d.baseEjectionTimeNanos());
        long max = duration(m.get("maxEjectionTime"), at + ".maxEjectionTime", d.maxEjectionTimeNanos());
        String readKey = implementation == GrpcImplementation.JAVA ? "maxEjectionPercentage" : "maxEjectionPercent";
        String otherKey = implementation == GrpcImplementation.JAVA ? "maxEjectionPercent" : "maxEjectionPercentage";
        int maxPercent = integer(m.get(readKey), at + "." + readKey, d.maxEjectionPercent(), 100);
        if (m.containsKey(otherKey)) {
            integer(m.get(otherKey), at + "." + otherKey, 0, 100);
            notes.add(otherKey + " is ignored by " + implementation.label() + ", which reads " + readKey
                    + (m.containsKey(readKey)
                            ? ""
                            : ": the cap stays at the default " + d.maxEjectionPercent() + " %"));
        }
        SuccessRateEjection sr = null;
        Located srNode = m.get("successRateEjection");
        if (srNode != null) {
            String k = at + ".successRateEjection";
            Map<String, Located> s = map(srNode, k, SR);
            SuccessRateEjection x = SuccessRateEjection.DEFAULTS;
            sr = new SuccessRateEjection(
                    integer(s.get("stdevFactor"), k + ".stdevFactor", x.stdevFactor(), -1),
                    integer(
                            s.get("enforcementPercentage"),
                            k + ".enforcementPercentage",
                            x.enforcementPercentage(),
                            100),
                    integer(s.get("minimumHosts"), k + ".minimumHosts", x.minimumHosts(), -1),
                    integer(s.get("requestVolume"), k + ".requestVolume", x.requestVolume(), -1));
        }
        FailurePercentageEjection fp = null;
        Located fpNode = m.get("failurePercentageEjection");
        if (fpNode != null) {
            String k = at + ".failurePercentageEjection";
            Map<String, Located> f = map(fpNode, k, FP);
            FailurePercentageEjection x = FailurePercentageEjection.DEFAULTS;
            fp = new FailurePercentageEjection(
                    integer(f.get("threshold"), k + ".threshold", x.threshold(), 100),
                    integer(
                            f.get("enforcementPercentage"),
                            k + ".enforcementPercentage",
                            x.enforcementPercentage(),
                            100),
                    integer(f.get("minimumHosts"), k + ".minimumHosts", x.minimumHosts(), -1),
                    integer(f.get("requestVolume"), k + ".requestVolume", x.requestVolume(), -1));
        }
        if (sr == null && fp == null) {
            notes.add("neither successRateEjection nor failurePercentageEjection is set: gRPC counts nothing and ejects"
                    + " nothing");
        }
        return new GrpcSettings(
                new GrpcOutlierConfig(interval, base, max, maxPercent, sr, fp, implementation),
                "service config " + source,
                notes);
    }

    /** The outlier-detection policy's object: the first policy gRPC knows in {@code loadBalancingConfig}. */
    private static Located policy(Located root) {
        if (!(root.value() instanceof Map<?, ?> top)) {
            throw new InputException(
                    root.origin() + ": a service config is a JSON object with loadBalancingConfig, not "
                            + Wording.describe(root.value()));
        }
        if (top.containsKey(POLICY) && top.size() == 1) {
            return (Located) top.get(POLICY);
        }
        Located list = (Located) top.get("loadBalancingConfig");
        if (list == null) {
            throw new InputException(root.origin() + ": loadBalancingConfig: missing; expected a list such as " + "[{\""
                    + POLICY + "\": {...}}] (the keys found: " + String.join(", ", keys(top)) + ")");
        }
        if (!(list.value() instanceof List<?> policies) || policies.isEmpty()) {
            throw new InputException(list.origin() + ": loadBalancingConfig: " + Wording.describe(list.value())
                    + " is not allowed; expected a non-empty list of one-key objects, such as [{\"" + POLICY
                    + "\": {...}}]");
        }
        for (int i = 0; i < policies.size(); i++) {
            Located entry = (Located) policies.get(i);
            String name = oneKey(entry, "loadBalancingConfig[" + i + "]");
            if (name.equals(POLICY)) {
                return (Located) ((Map<?, ?>) entry.value()).get(POLICY);
            }
            if (KNOWN.contains(name)) {
                throw new InputException(entry.origin() + ": loadBalancingConfig[" + i + "]: " + name + " comes before "
                        + POLICY + ", and gRPC uses the first policy it knows: no outlier detection runs; put "
                        + POLICY + " first, with " + name + " as its childPolicy");
            }
        }
        throw new InputException(list.origin() + ": loadBalancingConfig: no " + POLICY + " policy; expected one such"
                + " as {\"" + POLICY + "\": {\"successRateEjection\": {}, \"childPolicy\": [{\"round_robin\": {}}]}}");
    }

    private static String childPolicy(Located node, String key) {
        if (!(node.value() instanceof List<?> list) || list.isEmpty()) {
            throw new InputException(node.origin() + ": " + key + ": " + Wording.describe(node.value())
                    + " is not allowed; expected a non-empty list of one-key objects, such as [{\"round_robin\": {}}]");
        }
        return oneKey((Located) list.get(0), key + "[0]");
    }

    private static String oneKey(Located entry, String key) {
        if (!(entry.value() instanceof Map<?, ?> m) || m.size() != 1) {
            throw new InputException(entry.origin() + ": " + key + ": " + Wording.describe(entry.value())
                    + " is not allowed; expected an object with one key, the policy's name");
        }
        return String.valueOf(m.keySet().iterator().next());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Located> map(Located node, String key, Set<String> allowed) {
        if (!(node.value() instanceof Map)) {
            throw new InputException(node.origin() + ": " + key + ": " + Wording.describe(node.value())
                    + " is not allowed; expected an object with keys "
                    + String.join(", ", new LinkedHashSet<>(allowed)));
        }
        Map<String, Located> m = (Map<String, Located>) node.value();
        for (Map.Entry<String, Located> e : m.entrySet()) {
            if (!allowed.contains(e.getKey())) {
                String near = Wording.nearest(e.getKey(), allowed);
                throw new InputException(e.getValue().origin() + ": unknown key '" + key + "." + e.getKey() + "'"
                        + (near == null ? "" : " (did you mean '" + near + "'?)") + "; gRPC allows under " + key + ": "
                        + String.join(", ", allowed.stream().sorted().toList()));
            }
        }
        return m;
    }

    /** A whole number from 0 to {@code max} ({@code -1}: no upper bound but an int's). */
    private static int integer(Located node, String key, int fallback, int max) {
        if (node == null) {
            return fallback;
        }
        Object v = node.value();
        if (v instanceof BigDecimal d
                && d.stripTrailingZeros().scale() <= 0
                && d.abs().compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) <= 0) {
            v = d.longValue();
        }
        long upper = max < 0 ? Integer.MAX_VALUE : max;
        if (!(v instanceof Long l) || l < 0 || l > upper) {
            throw new InputException(node.origin() + ": " + key + ": " + Wording.describe(v) + " is not allowed; gRPC "
                    + "allows " + (max < 0 ? "a whole number of at least 0" : "a whole number from 0 to " + max));
        }
        return (int) (long) l;
    }

    /** A {@code google.protobuf.Duration} in JSON: {@code "10s"}, {@code "0.25s"}, at least 0 (A50). */
    private static long duration(Located node, String key, long fallback) {
        if (node == null) {
            return fallback;
        }
        Matcher mt = node.value() instanceof String s ? DURATION.matcher(s) : null;
        if (mt == null || !mt.matches() || !mt.group(1).isEmpty()) {
            throw new InputException(
                    node.origin() + ": " + key + ": " + Wording.describe(node.value()) + " is not "
                            + "allowed; gRPC allows a google.protobuf.Duration string of at least 0, such as \"10s\" or \"0.5s\"");
        }
        long seconds = Long.parseLong(mt.group(2));
        String frac = mt.group(3) == null ? "" : mt.group(3);
        long nanos = frac.isEmpty() ? 0 : Long.parseLong((frac + "000000000").substring(0, 9));
        if (seconds > 315_576_000L) {
            throw new InputException(node.origin() + ": " + key + ": " + Wording.describe(node.value()) + " is not "
                    + "allowed; the lab takes durations up to 10 years");
        }
        long total = seconds * 1_000_000_000L + nanos;
        if (key.endsWith(".interval") && total == 0) {
            throw new InputException(
                    node.origin() + ": " + key + ": \"0s\" is not allowed; an interval of 0 would sweep"
                            + " without end (grpc-java's timer needs a delay above 0)");
        }
        return total;
    }

    private static List<String> keys(Map<?, ?> m) {
        List<String> out = new ArrayList<>();
        for (Object k : m.keySet()) {
            out.add(String.valueOf(k));
        }
        return out;
    }
}
