package dev.outlierlab.check.grpc;

import dev.outlierlab.check.CheckRule;
import dev.outlierlab.check.CheckTarget;
import dev.outlierlab.check.Finding;
import dev.outlierlab.check.GrpcRule;
import dev.outlierlab.check.Rule;
import dev.outlierlab.check.Severity;
import dev.outlierlab.config.grpc.GrpcSettings;
import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.engine.grpc.FailurePercentageEjection;
import dev.outlierlab.engine.grpc.GrpcImplementation;
import dev.outlierlab.engine.grpc.GrpcOutlierConfig;
import dev.outlierlab.engine.grpc.SuccessRateEjection;
import dev.outlierlab.engine.grpc.XdsOutlierMapping;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code check}'s rules for gRPC clients: a gRPC service config's outlier detection, and an Envoy cluster as a gRPC
 * client reads it through xDS ({@link XdsOutlierMapping}). What a gRPC client ignores, what it turns off where Envoy
 * only stops enforcing, what can never eject, and where grpc-java, grpc-go and C-core would behave differently.
 */
public final class GrpcChecks {
    private GrpcChecks() {}

    /** Findings for a service config read by {@code ServiceConfigReader}, about {@code file}. */
    public static List<Finding> forServiceConfig(GrpcSettings settings, String file) {
        List<Finding> out = new ArrayList<>();
        for (String note : settings.notes()) {
            if (note.contains(" is ignored by ")) {
                String key = note.substring(0, note.indexOf(' '));
                out.add(finding(
                        GrpcRule.KEY_IGNORED,
                        Severity.WARNING,
                        "service config",
                        note,
                        Map.of(
                                "key",
                                key,
                                "implementation",
                                settings.config().implementation().key()),
                        null,
                        file,
                        1));
            }
        }
        out.addAll(forConfig(settings.config(), "service config", file, 1, "camel"));
        return out;
    }

    /** Findings for each Envoy cluster as a client of {@code implementation} reads it through xDS. */
    public static List<Finding> forClusters(List<CheckTarget> targets, GrpcImplementation implementation) {
        List<Finding> out = new ArrayList<>();
        for (CheckTarget t : targets) {
            if (!t.hasOutlierDetection() || t.config() == null) {
                out.add(finding(
                        Rule.NO_OUTLIER_DETECTION,
                        Severity.NOTE,
                        t.name(),
                        "no outlier_detection: gRPC's xDS"
                                + " client configures a no-op outlier detection (nothing counted, nothing ejected)",
                        Map.of(),
                        null,
                        t.file(),
                        t.line()));
                continue;
            }
            OutlierDetectionConfig envoy = t.config();
            XdsOutlierMapping mapping;
            try {
                mapping = XdsOutlierMapping.of(envoy, implementation);
            } catch (InvalidConfigException e) {
                out.add(finding(
                        Rule.INVALID_CONFIG,
                        Severity.ERROR,
                        t.name(),
                        e.getMessage(),
                        Map.of(),
                        null,
                        t.file(),
                        t.line()));
                continue;
            }
            for (String field : mapping.ignored()) {
                out.add(finding(
                        GrpcRule.IGNORED_FIELD,
                        Severity.WARNING,
                        t.name(),
                        field + " is set, and a gRPC client"
                                + " ignores it (gRFC A50 maps only success rate, failure percentage, the interval, the ejection"
                                + " times and the cap)",
                        Map.of("field", field),
                        null,
                        t.file(),
                        t.line()));
            }
            if (!envoy.isExplicit(OutlierSetting.CONSECUTIVE_5XX) && envoy.consecutive5xx() > 0) {
                out.add(finding(
                        GrpcRule.IGNORED_FIELD,
                        Severity.NOTE,
                        t.name(),
                        "consecutive_5xx (Envoy's default 5,"
                                + " enforced at 100 %) is Envoy's main detector of a failing host; a gRPC client has none like"
                                + " it",
                        Map.of("field", "consecutive_5xx"),
                        null,
                        t.file(),
                        t.line()));
            }
            if (envoy.isExplicit(OutlierSetting.ENFORCING_SUCCESS_RATE)
                    && envoy.get(OutlierSetting.ENFORCING_SUCCESS_RATE) == 0) {
                out.add(finding(
                        GrpcRule.SUCCESS_RATE_DISABLED,
                        Severity.WARNING,
                        t.name(),
                        "enforcing_success_rate: 0:"
                                + " Envoy still detects success-rate outliers (detect-only); a gRPC client turns success rate off",
                        Map.of(),
                        null,
                        t.file(),
                        t.line()));
            }
            if (mapping.config().failurePercentage() == null) {
                out.add(finding(
                        GrpcRule.FAILURE_PERCENTAGE_OFF,
                        Severity.NOTE,
                        t.name(),
                        "enforcing_failure_percentage"
                                + " is "
                                + (envoy.isExplicit(OutlierSetting.ENFORCING_FAILURE_PERCENTAGE) ? "0" : "unset")
                                + ": a " + implementation.label() + " client runs no failure percentage"
                                + (envoy.isExplicit(OutlierSetting.ENFORCING_FAILURE_PERCENTAGE)
                                        ? ""
                                        : " (grpc-java would: it runs it with enforcement 100 when the field is unset)"),
                        Map.of(),
                        null,
                        t.file(),
                        t.line()));
            }
            out.addAll(forConfig(mapping.config(), t.name(), t.file(), t.line(), "snake"));
        }
        return out;
    }

    /** Rules on the settings a gRPC client runs, whichever way they were given. */
    private static List<Finding> forConfig(GrpcOutlierConfig c, String target, String file, int line, String keys) {
        List<Finding> out = new ArrayList<>();
        boolean camel = keys.equals("camel");
        SuccessRateEjection sr = c.successRate();
        FailurePercentageEjection fp = c.failurePercentage();
        boolean srEjects = sr != null && sr.enforcementPercentage() > 0;
        boolean fpEjects = fp != null && fp.enforcementPercentage() > 0 && fp.threshold() < 100;
        if (!srEjects && !fpEjects) {
            out.add(finding(
                    GrpcRule.NOTHING_EJECTS,
                    Severity.ERROR,
                    target,
                    sr == null && fp == null
                            ? "neither success rate nor failure percentage is configured: gRPC counts nothing and ejects nothing"
                            : "no algorithm can eject: "
                                    + (sr == null ? "success rate is off" : "success rate's enforcement is 0")
                                    + ", "
                                    + (fp == null
                                            ? "failure percentage is off"
                                            : fp.threshold() >= 100
                                                    ? "failure percentage's threshold is 100"
                                                    : "failure percentage's enforcement is 0"),
                    Map.of(),
                    null,
                    file,
                    line));
        }
        if (c.maxEjectionPercent() >= 100 && (srEjects || fpEjects)) {
            out.add(finding(
                    GrpcRule.CAP_ALL_NO_PANIC,
                    Severity.WARNING,
                    target,
                    (camel ? "maxEjectionPercent" : "max_ejection_percent")
                            + " 100: every endpoint can be ejected, and then every call fails with"
                            + " UNAVAILABLE (gRPC has no panic mode)",
                    Map.of("max_ejection_percent", (long) c.maxEjectionPercent()),
                    null,
                    file,
                    line));
        }
        if (fp != null && fp.threshold() == 100) {
            out.add(finding(
                    GrpcRule.THRESHOLD_100_NEVER,
                    Severity.WARNING,
                    target,
                    (camel ? "threshold" : "failure_percentage_threshold")
                            + " 100: gRPC ejects only above the threshold, so failure percentage"
                            + " never ejects (Envoy would eject an endpoint failing every request)",
                    Map.of("threshold", 100L),
                    null,
                    file,
                    line));
        }
        if (c.maxEjectionPercent() == 0 && (srEjects || fpEjects)) {
            out.add(finding(
                    GrpcRule.IMPLEMENTATIONS_DIFFER,
                    Severity.NOTE,
                    target,
                    "max_ejection_percent 0: grpc-java"
                            + " and grpc-go eject nothing (0 % >= 0 stops them), C-core still ejects one endpoint",
                    Map.of("max_ejection_percent", 0L),
                    null,
                    file,
                    line));
        }
        if (srEjects && fpEjects) {
            out.add(finding(
                    GrpcRule.IMPLEMENTATIONS_DIFFER,
                    Severity.NOTE,
                    target,
                    "both algorithms are on: an endpoint"
                            + " that both find in one sweep is ejected twice by grpc-java and grpc-go (its ejection time doubles"
                            + " at once; grpc-go's count of ejected endpoints then stays one too high), once by C-core",
                    Map.of(),
                    null,
                    file,
                    line));
        }
        if ((sr != null && sr.enforcementPercentage() == 1) || (fp != null && fp.enforcementPercentage() == 1)) {
            out.add(finding(
                    GrpcRule.IMPLEMENTATIONS_DIFFER,
                    Severity.NOTE,
                    target,
                    "an enforcement percentage of 1:"
                            + " C-core draws from 1 to 99, so it never ejects; grpc-java and grpc-go eject 1 % of outliers",
                    Map.of(),
                    null,
                    file,
                    line));
        }
        return out;
    }

    /**
     * A finding about the file (an empty target, so every report lists it under the file), its message naming the
     * cluster or the service config it is about.
     */
    private static Finding finding(
            CheckRule rule,
            Severity severity,
            String target,
            String message,
            Map<String, Object> numbers,
            String fix,
            String file,
            int line) {
        return new Finding(
                rule,
                severity,
                "",
                target + " (as a gRPC client reads it): " + message,
                new LinkedHashMap<>(numbers),
                fix,
                file,
                line,
                List.of());
    }
}
