package dev.outlierlab.check;

/**
 * The checks {@code outlier-lab check} makes of a gRPC client's outlier detection (grpc-java's
 * {@code OutlierDetectionLoadBalancer}, grpc-go, C-core), from an Envoy cluster as gRPC's xDS client maps it
 * (gRFC A50) or from a service config: see docs/grpc.md. Stable ids as for {@link Rule}.
 */
public enum GrpcRule implements CheckRule {
    IGNORED_FIELD(
            Severity.WARNING,
            "grpc-ignored-field",
            "A gRPC client ignores this Envoy field",
            "gRPC's xDS client maps only success rate, failure percentage, the interval, the ejection times and the cap "
                    + "(gRFC A50); consecutive detectors, jitter, health-check return, split origins and "
                    + "always_eject_one_host do nothing for a gRPC client."),
    SUCCESS_RATE_DISABLED(
            Severity.WARNING,
            "grpc-success-rate-disabled",
            "enforcing_success_rate: 0 turns success rate off in gRPC",
            "Envoy still detects and counts success-rate outliers at enforcement 0 (detect-only); gRPC's xDS client "
                    + "leaves success_rate_ejection unset, so nothing is even counted."),
    FAILURE_PERCENTAGE_OFF(
            Severity.NOTE,
            "grpc-failure-percentage-off",
            "Failure percentage is off for gRPC clients",
            "With enforcing_failure_percentage 0 gRPC leaves failure_percentage_ejection unset, and so do grpc-go and "
                    + "C-core when it is unset (Envoy's default 0); grpc-java then runs it with enforcement 100. Envoy "
                    + "would still detect. A gRPC service config's failurePercentageEjection defaults to "
                    + "enforcement 100, unlike Envoy's enforcing_failure_percentage."),
    CAP_ALL_NO_PANIC(
            Severity.WARNING,
            "grpc-cap-all-no-panic",
            "Every endpoint can be ejected, and gRPC has no panic mode",
            "gRPC stops ejecting only when the ejected share reaches max_ejection_percent; at 100 every endpoint can go, "
                    + "and with all ejected every call fails with UNAVAILABLE: there is no panic mode to fall back on."),
    THRESHOLD_100_NEVER(
            Severity.WARNING,
            "grpc-failure-threshold-100",
            "A failure threshold of 100 never ejects in gRPC",
            "gRPC ejects when the failure percentage is strictly greater than the threshold; nothing is above 100 %. "
                    + "Envoy's >= ejects an endpoint failing every request."),
    IMPLEMENTATIONS_DIFFER(
            Severity.NOTE,
            "grpc-implementations-differ",
            "grpc-java, grpc-go and C-core differ here",
            "The three libraries differ on max_ejection_percent 0 (Java and Go eject nothing, C-core still ejects the "
                    + "first), an endpoint that both algorithms find in one sweep (Java and Go eject it twice, C-core "
                    + "once), enforcement 1 (C-core draws 1 to 99 and never ejects) and the cap's key "
                    + "(maxEjectionPercentage in grpc-java, maxEjectionPercent in grpc-go and C-core)."),
    KEY_IGNORED(
            Severity.WARNING,
            "grpc-key-ignored",
            "This gRPC library ignores the key",
            "grpc-java reads maxEjectionPercentage and ignores maxEjectionPercent; grpc-go and C-core read "
                    + "maxEjectionPercent. The ignored key leaves the cap at 10 %."),
    NOTHING_EJECTS(
            Severity.ERROR,
            "grpc-nothing-ejects",
            "This gRPC configuration ejects nothing",
            "Neither success rate nor failure percentage is configured (or both have enforcement 0): gRPC counts "
                    + "nothing and ejects nothing.");

    private final Text text;

    GrpcRule(Severity defaultSeverity, String id, String title, String help) {
        this.text = new Text(defaultSeverity, id, title, help);
    }

    @Override
    public Text text() {
        return text;
    }
}
