package dev.outlierlab.check;

/**
 * The checks {@code outlier-lab check} makes of a web server's passive health checks: nginx's {@code max_fails}
 * and {@code proxy_next_upstream}, HAProxy's {@code observe} and {@code error-limit}, Caddy's passive health
 * checks. Stable ids as for {@link Rule}.
 */
public enum ServerRule implements CheckRule {
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
    CADDY_HANGING_UPSTREAM_NEVER_COUNTED(
            Severity.WARNING,
            "caddy-hanging-upstream-never-counted",
            "Without response_header_timeout a hanging upstream is never taken out",
            "Caddy's HTTP transport has no response_header_timeout by default: a try to an upstream that accepts the "
                    + "connection and never answers never returns, so it is neither counted by the passive checks nor "
                    + "retried, and its request is held until the client gives up."),
    CADDY_PASSIVE_OFF(
            Severity.NOTE,
            "caddy-passive-off",
            "No passive health checks",
            "Caddy's passive checks are on only when fail_duration is set.");

    private final Text text;

    ServerRule(Severity defaultSeverity, String id, String title, String help) {
        this.text = new Text(defaultSeverity, id, title, help);
    }

    @Override
    public Text text() {
        return text;
    }
}
