package dev.outlierlab.check;

/**
 * The checks {@code outlier-lab check} makes. Each has a stable id (used as SARIF's {@code ruleId} and in JSON;
 * never renamed), a title, and a help text saying which Envoy rule it follows.
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
                    + "counts every failed attempt, the caller sees a failure only when all attempts fail."),
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
    GATEWAY_STATISTICAL_RULE_CANNOT_FIRE(
            Severity.WARNING,
            "gateway-statistical-rule-cannot-fire",
            "The gateway's statistical rule cannot fire with this many endpoints",
            "With peer_set all, no success rate among N scored endpoints lies more than sqrt(N - 1) standard "
                    + "deviations from their mean (Samuelson's inequality), so with stdev_factor >= sqrt(N - 1) only the "
                    + "hard trip ejects (with equality only by a floating-point rounding tie). With peer_set others and "
                    + "two endpoints the one peer's spread is 0, below min_stdev."),
    GATEWAY_SINGLE_ENDPOINT(
            Severity.WARNING,
            "gateway-single-endpoint",
            "One endpoint: the gateway stage does nothing",
            "With one endpoint there are no peers to compare with, and the guard never empties the candidate list, "
                    + "so an ejected endpoint is put straight back."),
    GATEWAY_MIN_REQUESTS_UNREACHABLE(
            Severity.WARNING,
            "gateway-min-requests-unreachable",
            "min_requests is never reached within the window",
            "An endpoint is scored only with min_requests attempts in its window, per gateway process; at this "
                    + "traffic, spread over the endpoints and processes, none gets that many, so only the hard trip ejects."),
    GATEWAY_ORDERED_STARVES_PEERS(
            Severity.WARNING,
            "gateway-ordered-starves-peers",
            "ordered routing starves the peers",
            "With routing ordered every request goes to the first endpoint in the list; the others get attempts only "
                    + "as fallbacks or while it is ejected, so they are not scored and the first has no peers to be "
                    + "compared with."),
    GATEWAY_HAIR_TRIGGER(
            Severity.WARNING,
            "gateway-hair-trigger",
            "consecutive_failures 1 is a hair trigger",
            "The hard trip ejects at the first failure: a healthy endpoint failing 1 % of its requests at random is "
                    + "ejected every 100 attempts on average."),
    GATEWAY_NO_FALLBACKS(
            Severity.NOTE,
            "gateway-no-fallbacks",
            "fallbacks 0: callers see every failed attempt",
            "With no fallbacks a failed attempt is the caller's failed request; ejection only shortens how long an "
                    + "endpoint keeps failing requests."),
    GATEWAY_MODE_OFF(
            Severity.WARNING,
            "gateway-mode-off",
            "mode off: the gateway stage does nothing",
            "In mode off outcomes are not recorded and nothing is ejected or reported."),
    GATEWAY_MODE_SHADOW(
            Severity.NOTE,
            "gateway-mode-shadow",
            "mode shadow: nothing is removed",
            "In mode shadow the stage judges as in prod and records would_eject, but removes no endpoint."),
    ISTIO_TRANSLATION(
            Severity.WARNING,
            "istio-translation",
            "An Istio setting does not do what it seems to",
            "istiod translates a DestinationRule's outlierDetection into Envoy settings with rules of its own "
                    + "(pilot/pkg/networking/core/cluster_traffic_policy.go, applyOutlierDetection)."),
    // gRPC clients (grpc-java's OutlierDetectionLoadBalancer, grpc-go, C-core): GrpcChecks, docs/grpc.md
    GRPC_IGNORED_FIELD(
            Severity.WARNING,
            "grpc-ignored-field",
            "A gRPC client ignores this Envoy field",
            "gRPC's xDS client maps only success rate, failure percentage, the interval, the ejection times and the cap "
                    + "(gRFC A50); consecutive detectors, jitter, health-check return, split origins and "
                    + "always_eject_one_host do nothing for a gRPC client."),
    GRPC_SUCCESS_RATE_DISABLED(
            Severity.WARNING,
            "grpc-success-rate-disabled",
            "enforcing_success_rate: 0 turns success rate off in gRPC",
            "Envoy still detects and counts success-rate outliers at enforcement 0 (detect-only); gRPC's xDS client "
                    + "leaves success_rate_ejection unset, so nothing is even counted."),
    GRPC_FAILURE_PERCENTAGE_OFF(
            Severity.NOTE,
            "grpc-failure-percentage-off",
            "Failure percentage is off for gRPC clients",
            "With enforcing_failure_percentage 0 gRPC leaves failure_percentage_ejection unset, and so do grpc-go and "
                    + "C-core when it is unset (Envoy's default 0); grpc-java then runs it with enforcement 100. Envoy "
                    + "would still detect. A gRPC service config's failurePercentageEjection defaults to "
                    + "enforcement 100, unlike Envoy's enforcing_failure_percentage."),
    GRPC_CAP_ALL_NO_PANIC(
            Severity.WARNING,
            "grpc-cap-all-no-panic",
            "Every endpoint can be ejected, and gRPC has no panic mode",
            "gRPC stops ejecting only when the ejected share reaches max_ejection_percent; at 100 every endpoint can go, "
                    + "and with all ejected every call fails with UNAVAILABLE: there is no panic mode to fall back on."),
    GRPC_THRESHOLD_100_NEVER(
            Severity.WARNING,
            "grpc-failure-threshold-100",
            "A failure threshold of 100 never ejects in gRPC",
            "gRPC ejects when the failure percentage is strictly greater than the threshold; nothing is above 100 %. "
                    + "Envoy's >= ejects an endpoint failing every request."),
    GRPC_IMPLEMENTATIONS_DIFFER(
            Severity.NOTE,
            "grpc-implementations-differ",
            "grpc-java, grpc-go and C-core differ here",
            "The three libraries differ on max_ejection_percent 0 (Java and Go eject nothing, C-core still ejects the "
                    + "first), an endpoint that both algorithms find in one sweep (Java and Go eject it twice, C-core "
                    + "once), enforcement 1 (C-core draws 1 to 99 and never ejects) and the cap's key "
                    + "(maxEjectionPercentage in grpc-java, maxEjectionPercent in grpc-go and C-core)."),
    GRPC_KEY_IGNORED(
            Severity.WARNING,
            "grpc-key-ignored",
            "This gRPC library ignores the key",
            "grpc-java reads maxEjectionPercentage and ignores maxEjectionPercent; grpc-go and C-core read "
                    + "maxEjectionPercent. The ignored key leaves the cap at 10 %."),
    GRPC_NOTHING_EJECTS(
            Severity.ERROR,
            "grpc-nothing-ejects",
            "This gRPC configuration ejects nothing",
            "Neither success rate nor failure percentage is configured (or both have enforcement 0): gRPC counts "
                    + "nothing and ejects nothing."),
    NGINX_5XX_NOT_COUNTED(
            Severity.WARNING,
            "nginx-5xx-not-counted",
            "nginx never counts these 5xx responses",
            "nginx counts a 500, 502, 503, 504 or 429 against max_fails only when proxy_next_upstream lists it "
                    + "(http_503 ...) and another try is left (ngx_http_upstream_test_next); otherwise the response "
                    + "goes to the client and the server is freed as a success. Errors and timeouts always count."),
    NGINX_RETRY_HIDES_FAILURES(
            Severity.NOTE,
            "nginx-retry-hides-failures",
            "Listing a status also retries it on another server",
            "A status listed in proxy_next_upstream is retried on the next server while a try is left, so a "
                    + "failing server becomes invisible to clients; on the last try the status is passed on and not "
                    + "counted."),
    NGINX_MAX_FAILS_NOT_CONSECUTIVE(
            Severity.NOTE,
            "nginx-max-fails-not-consecutive",
            "max_fails is neither failures in a row nor a sliding window",
            "A success resets the count only when the server was selected more than fail_timeout after its last "
                    + "failure (ngx_http_upstream_free_round_robin_peer: accessed < checked): failures with successes "
                    + "between them add up while each comes within fail_timeout of the previous one."),
    NGINX_PER_WORKER_COUNTS(
            Severity.WARNING,
            "nginx-per-worker-counts",
            "Without zone, every worker process counts failures alone",
            "The upstream's peers live in each worker's own memory unless the upstream has a zone: with N workers a "
                    + "failing server takes up to N times max_fails failures, and N probes, before every worker has "
                    + "it out."),
    NGINX_SINGLE_SERVER(
            Severity.WARNING,
            "nginx-single-server",
            "A one-server upstream is never taken out",
            "With one server nginx neither counts failures nor skips the server (peers->single): max_fails and "
                    + "fail_timeout do nothing, and every failure reaches the client."),
    NGINX_ALL_DOWN_502(
            Severity.NOTE,
            "nginx-all-down-502",
            "Every server out: 502 until fail_timeout passes",
            "When every server is out nginx answers 502 \"no live upstreams\" at once, without trying one, until "
                    + "a fail_timeout lapses, even when the servers have recovered; only backup servers are tried."),
    NGINX_MAX_FAILS_ZERO(
            Severity.NOTE,
            "nginx-max-fails-zero",
            "max_fails=0 turns failure accounting off",
            "With max_fails=0 the server is never taken out, whatever fails."),
    NGINX_ONE_TRY(
            Severity.WARNING,
            "nginx-one-try",
            "One try: listed statuses never count",
            "With proxy_next_upstream_tries 1 (or off) no status ever counts as a failure, since it is always the "
                    + "last try; only errors and timeouts take a server out."),
    HAPROXY_OBSERVE_WITHOUT_CHECK(
            Severity.ERROR,
            "haproxy-observe-without-check",
            "observe without check does nothing",
            "health_adjust() returns at once when the server has no check task: HAProxy accepts observe, "
                    + "error-limit and on-error without check and never acts on them."),
    HAPROXY_CHECKS_CLEAR_ERRORS(
            Severity.WARNING,
            "haproxy-checks-clear-errors",
            "Passing health checks undo the passive errors",
            "Each passing active check clears the consecutive-error count and restores the health: with on-error "
                    + "fail-check (the default) a server failing fewer than error-limit times fall between two "
                    + "checks is never taken DOWN while its health endpoint answers."),
    HAPROXY_FLAPS(
            Severity.NOTE,
            "haproxy-flaps",
            "The server comes back through checks and flaps",
            "mark-down and sudden-death take the server DOWN, but the return is only through active checks: rise "
                    + "passes of a health endpoint that still answers bring it back within rise checks, and it goes "
                    + "down again."),
    HAPROXY_NO_OBSERVE(
            Severity.NOTE,
            "haproxy-no-observe",
            "No passive checks",
            "Without observe, HAProxy judges the server by its active checks only."),
    CADDY_5XX_NOT_COUNTED(
            Severity.WARNING,
            "caddy-5xx-not-counted",
            "Caddy never counts 5xx without unhealthy_status",
            "Caddy's passive checks count failed round trips; a response counts only if its status matches "
                    + "unhealthy_status (or its latency reaches unhealthy_latency)."),
    CADDY_MAX_FAILS_ONE(
            Severity.NOTE,
            "caddy-max-fails-one",
            "max_fails defaults to 1",
            "With fail_duration set and no max_fails, one failure takes the upstream out for fail_duration."),
    CADDY_DIAL_ERRORS_REACH_CLIENTS(
            Severity.WARNING,
            "caddy-dial-errors-reach-clients",
            "Without lb_try_duration every failed dial reaches a client",
            "Caddy retries only with lb_try_duration or lb_retries; without them a refused connection is a 502 to the "
                    + "client, and a dead upstream gets max_fails requests every fail_duration (its window slides "
                    + "failure by failure)."),
    CADDY_SLOW_5XX_TWICE(
            Severity.NOTE,
            "caddy-slow-5xx-twice",
            "A slow 5xx counts twice",
            "A response counts once for a matching unhealthy_status and once more for reaching unhealthy_latency."),
    CADDY_PASSIVE_OFF(
            Severity.NOTE,
            "caddy-passive-off",
            "No passive health checks",
            "Caddy's passive checks are on only when fail_duration is set.");

    private final Severity defaultSeverity;
    private final String id;
    private final String title;
    private final String help;

    Rule(Severity defaultSeverity, String id, String title, String help) {
        this.defaultSeverity = defaultSeverity;
        this.id = id;
        this.title = title;
        this.help = help;
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public Severity defaultSeverity() {
        return defaultSeverity;
    }

    @Override
    public String title() {
        return title;
    }

    @Override
    public String help() {
        return help;
    }
}
