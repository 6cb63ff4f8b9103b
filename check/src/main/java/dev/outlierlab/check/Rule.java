package dev.outlierlab.check;

/**
 * The checks {@code outlier-lab check} makes of an Envoy cluster (an Istio DestinationRule's included) and of the
 * files it reads. Each has a stable id (used as SARIF's {@code ruleId} and in JSON; never renamed), a title, and a
 * help text saying which Envoy rule it follows. A gateway's are {@link GatewayRule}, a gRPC client's
 * {@link GrpcRule}, a web server's {@link ServerRule}.
 */
public enum Rule implements CheckRule {
    INVALID_CONFIG(
            Severity.ERROR,
            "invalid-config",
            "Envoy rejects this configuration",
            "Envoy validates outlier_detection, common_lb_config and health_checks when the cluster is loaded and "
                    + "refuses the whole cluster if a value is out of range (e.g. a percentage above 100, "
                    + "max_ejection_time below base_ejection_time, an interval of 0)."),
    NO_OUTLIER_DETECTION(
            Severity.NOTE,
            "no-outlier-detection",
            "No outlier detection",
            "Without an outlier_detection block Envoy does no passive outlier detection for the cluster."),
    CAP_ADMITS_NO_HOST(
            Severity.ERROR,
            "cap-admits-no-host",
            "The ejection cap admits no host at this cluster size",
            "Envoy ejects a host only if 100 * (ejected + 1) / hosts <= max_ejection_percent (or "
                    + "always_eject_one_host is set and nothing is ejected). Below that size every detection is an "
                    + "overflow: counted, not ejected. An error for a cap the file chose; a warning for Envoy's default cap (10) "
                    + "when the file configures a detector, a note when it leaves ejection to Envoy's defaults."),
    CAP_ADMITS_NO_HOST_BELOW(
            Severity.NOTE,
            "cap-admits-no-host-below",
            "The ejection cap admits no host in small clusters",
            "The same rule as cap-admits-no-host when the number of hosts is not known: the smallest cluster in "
                    + "which the cap lets one host go."),
    SUCCESS_RATE_TOO_FEW_HOSTS(
            Severity.WARNING,
            "success-rate-too-few-hosts",
            "Success-rate detection can never run",
            "Success rate runs only when at least success_rate_minimum_hosts hosts have enough requests in an "
                    + "interval; a cluster with fewer hosts never gets there."),
    SUCCESS_RATE_VOLUME_UNREACHABLE(
            Severity.WARNING,
            "success-rate-volume-unreachable",
            "Success-rate detection cannot reach its request volume",
            "A host is judged only with success_rate_request_volume requests in one interval; at this rate, "
                    + "spread over the hosts, no host gets that many."),
    FAILURE_PERCENTAGE_TOO_FEW_HOSTS(
            Severity.WARNING,
            "failure-percentage-too-few-hosts",
            "Failure-percentage detection can never run",
            "Failure percentage runs only when at least failure_percentage_minimum_hosts hosts have enough "
                    + "requests in an interval."),
    FAILURE_PERCENTAGE_VOLUME_UNREACHABLE(
            Severity.WARNING,
            "failure-percentage-volume-unreachable",
            "Failure-percentage detection cannot reach its request volume",
            "A host is judged only with failure_percentage_request_volume requests in one interval."),
    GATEWAY_DETECT_ONLY(
            Severity.WARNING,
            "gateway-detect-only",
            "Gateway-failure detection is detect-only",
            "enforcing_consecutive_gateway_failure defaults to 0: consecutive 502/503/504 responses are detected "
                    + "and counted but never eject a host."),
    FAILURE_PERCENTAGE_DETECT_ONLY(
            Severity.WARNING,
            "failure-percentage-detect-only",
            "Failure-percentage detection is detect-only",
            "enforcing_failure_percentage defaults to 0: hosts over failure_percentage_threshold are detected but "
                    + "never ejected."),
    LOCAL_ORIGIN_IGNORED(
            Severity.WARNING,
            "local-origin-ignored",
            "Local-origin settings have no effect",
            "consecutive_local_origin_failure and its enforcement apply only with "
                    + "split_external_local_origin_errors: true."),
    HEALTH_CHECK_RETURNS_EJECTED(
            Severity.WARNING,
            "health-check-returns-ejected",
            "Active health checks return ejected hosts early",
            "With successful_active_health_check_uneject_host (default true) a passing active health check "
                    + "returns an ejected host to rotation at once and clears its counters, before its ejection "
                    + "time is up."),
    CAP_ALLOWS_PANIC(
            Severity.WARNING,
            "cap-allows-panic",
            "Ejections alone can trigger panic mode",
            "When fewer than healthy_panic_threshold percent of hosts are healthy, Envoy balances over every host, "
                    + "ejected ones included. A cap above 100 minus the panic threshold lets ejections get there, "
                    + "and then they stop protecting anything."),
    PANIC_DISABLED_EJECT_ALL(
            Severity.WARNING,
            "panic-disabled-eject-all",
            "Every host can be ejected",
            "With panic mode off (healthy_panic_threshold 0) and a cap that admits every host, a failure on all "
                    + "hosts ejects them all and requests fail with no healthy upstream."),
    CONSECUTIVE_5XX_MISSES_PARTIAL(
            Severity.NOTE,
            "consecutive-5xx-misses-partial-failure",
            "consecutive_5xx is slow or blind for partial failure",
            "A host failing a share of its requests evenly spread among successes never reaches consecutive_5xx "
                    + "failures in a row unless it fails more than (consecutive_5xx - 1) / consecutive_5xx of them; with "
                    + "independent random failures at rate p the first run of n comes after (1 - p^n) / ((1 - p) p^n) "
                    + "requests on average."),
    NO_DETECTOR_ENFORCED(
            Severity.ERROR,
            "no-detector-enforced",
            "No detector can eject a host",
            "Every detector that applies has its enforcing_* at 0 (or a consecutive threshold of 0): Envoy counts and "
                    + "detects, but never ejects. The cap and the other findings do not matter then, so they are skipped."),
    SUCCESS_RATE_CANNOT_EJECT(
            Severity.WARNING,
            "success-rate-cannot-eject",
            "Success rate can eject no host at this size",
            "Envoy ejects below mean - (success_rate_stdev_factor / 1000) x stdev. No host among N is more than "
                    + "sqrt(N - 1) standard deviations below the mean (Samuelson's inequality), so a factor of at least "
                    + "sqrt(N - 1) ejects nothing, for any failure pattern. A factor in the hundreds is usually a unit "
                    + "mistake (the field is in thousandths)."),
    DETECTOR_THRESHOLD_ZERO(
            Severity.WARNING,
            "detector-threshold-zero",
            "An enforced detector with threshold 0 never fires",
            "Envoy detects when the consecutive count, after adding the failure, equals the threshold; a count of "
                    + "at least 1 never equals 0."),
    GATEWAY_REDUNDANT(
            Severity.NOTE,
            "gateway-detector-redundant",
            "The gateway-failure detector adds nothing",
            "Every gateway failure is also a 5xx; with consecutive_gateway_failure >= consecutive_5xx and 5xx "
                    + "enforced at 100 %, the 5xx detector ejects first or on the same response."),
    INTERVAL_LONGER_THAN_EJECTION(
            Severity.WARNING,
            "interval-longer-than-ejection",
            "Ejections last until the next interval tick",
            "Envoy returns ejected hosts only at the interval timer, so with interval > base_ejection_time every "
                    + "ejection lasts up to a whole interval or more."),
    INTERVAL_VERY_SHORT(
            Severity.NOTE,
            "interval-very-short",
            "A very short interval",
            "Below 1 s the ejection multiplier decays within moments of a host's return (one step per interval), and "
                    + "success rate and failure percentage need their request volume within one interval."),
    HAIR_TRIGGER(
            Severity.WARNING,
            "hair-trigger-threshold",
            "A consecutive threshold of 1 or 2 with a high cap",
            "Healthy hosts fail one or two requests in a row now and then; with a cap that lets half the cluster or "
                    + "more go, a blip shared by several hosts ejects them together."),
    SINGLE_HOST(
            Severity.NOTE,
            "single-host-cluster",
            "One host",
            "With one host, ejecting it leaves nothing to send to: Envoy's panic mode sends traffic to it anyway (or, "
                    + "with panic off, every request fails). Often a DNS name; outlier detection does little here."),
    FILE_NOT_READ(
            Severity.ERROR,
            "file-not-read",
            "The file could not be read",
            "One of several files given (or found in a directory) is not configuration check can read: malformed "
                    + "YAML, a template, a value Envoy's types refuse. The other files are still checked; the run "
                    + "exits 2, as for any bad input, so that a broken file is not mistaken for a clean one."),
    NOTHING_TO_CHECK(
            Severity.NOTE,
            "nothing-to-check",
            "Nothing to check in this file",
            "The file holds no cluster or outlier-detection policy (for example a manifest without a "
                    + "DestinationRule), so there is nothing to say about outlier detection; CI can run over a whole "
                    + "directory."),
    SUCCESS_RATE_FAILURE_PERCENTAGE_DOUBLE_OFFER(
            Severity.WARNING,
            "success-rate-failure-percentage-double-offer",
            "A host can be offered for ejection twice in one interval",
            "Envoy's processSuccessRateEjections builds the success-rate and failure-percentage host lists in one "
                    + "pass before ejecting, and the failure-percentage loop does not skip a host success rate has "
                    + "just ejected. When both enforce, a host that is an outlier to both is offered twice: an "
                    + "overflow if the cap is full, otherwise a second ejection that leaves ejections_active one too "
                    + "high after the host returns, for the life of the process (a debug build asserts)."),
    LONG_EJECTION(
            Severity.WARNING,
            "long-ejection",
            "A very long ejection",
            "Envoy keeps an ejected host out for base_ejection_time times its multiplier and returns it only at an "
                    + "interval tick: with a base of hours, one blip shared by several hosts removes their capacity "
                    + "for hours. A note from 10 minutes, a warning from 1 hour."),
    RETRIES_FEED_CONSECUTIVE(
            Severity.NOTE,
            "retries-feed-consecutive-counter",
            "Retries count toward the consecutive-error detectors",
            "Every attempt of a retried request is a response Envoy's outlier detector sees: a request retried N "
                    + "times on 5xx, against a failure every host shares, adds up to N + 1 failures, spread over the "
                    + "hosts tried, so consecutive thresholds are reached N + 1 times sooner and shared failures eject "
                    + "hosts faster."),
    LOCALITY_FAILOVER_NEEDS_OUTLIER_DETECTION(
            Severity.WARNING,
            "locality-failover-needs-outlier-detection",
            "Locality failover without outlier detection does nothing",
            "istiod configures locality failover (localityLbSetting failover or failoverPriority) only for a "
                    + "cluster with outlier detection: endpoints are moved to lower priorities only when unhealthy "
                    + "hosts are ejected, so without outlierDetection traffic never fails over."),
    ISTIO_LOCALITY_FAILOVER(
            Severity.NOTE,
            "istio-locality-failover",
            "istiod gives each caller's zone its own priority",
            "With outlierDetection set and locality load balancing on (the mesh default), istiod's "
                    + "applyLocalityFailover sends each calling proxy its endpoints as priorities by zone: its own "
                    + "zone first. Envoy keeps a priority's traffic while overprovisioning_factor (140 %) times its "
                    + "healthy share reaches 100 %, and spills the rest to the next priority: ejecting one of two "
                    + "pods in a caller's zone sends 70 % of that caller's traffic to the other local pod."),
    ROUTE_RETRIES_HIDE_FAILURES(
            Severity.NOTE,
            "route-retries-hide-failures",
            "Route retries hide upstream failures from callers",
            "istiod gives every HTTP route two retries (connect-failure, refused-stream, unavailable, cancelled, "
                    + "retriable-status-codes 503) on other hosts unless a VirtualService says otherwise: the detector "
                    + "counts every failed attempt, the caller sees a failure only when all attempts fail. A host that "
                    + "does not answer is retried only under a per_try_timeout shorter than the route's timeout, with "
                    + "reset, 5xx or gateway-error in retry_on (Envoy's router.cc); istiod's default sets none."),
    KIND_NOT_READ(
            Severity.NOTE,
            "kind-not-read",
            "A resource that may configure outlier detection is not read",
            "The file holds a resource of a kind check does not translate (a control plane's own policy); its "
                    + "outlier settings, if any, are not checked."),
    NOT_MODELLED(
            Severity.NOTE,
            "not-modelled",
            "Read but not modelled",
            "Parts of the file the lab reads past: load-balancing weights, priorities, outlier-detection monitors, "
                    + "health-check intervals other than interval, fields newer than the bundled Envoy API. Findings "
                    + "and simulations ignore them."),
    ISTIO_TRANSLATION(
            Severity.WARNING,
            "istio-translation",
            "An Istio setting does not do what it seems to",
            "istiod translates a DestinationRule's outlierDetection into Envoy settings with rules of its own "
                    + "(pilot/pkg/networking/core/cluster_traffic_policy.go, applyOutlierDetection).");

    private final Text text;

    Rule(Severity defaultSeverity, String id, String title, String help) {
        this.text = new Text(defaultSeverity, id, title, help);
    }

    @Override
    public Text text() {
        return text;
    }
}
