package dev.outlierlab.check;

/**
 * The checks {@code outlier-lab check} makes of a gateway configuration (its outlier stage's mode, routing,
 * consecutive-failure trip, statistical rule and fallbacks). Stable ids as for {@link Rule}.
 */
public enum GatewayRule implements CheckRule {
    STATISTICAL_RULE_CANNOT_FIRE(
            Severity.WARNING,
            "gateway-statistical-rule-cannot-fire",
            "The gateway's statistical rule cannot fire with this many endpoints",
            "With peer_set all, no success rate among N scored endpoints lies more than sqrt(N - 1) standard "
                    + "deviations from their mean (Samuelson's inequality), so with stdev_factor >= sqrt(N - 1) only the "
                    + "hard trip ejects (with equality only by a floating-point rounding tie). With peer_set others and "
                    + "two endpoints the one peer's spread is 0, below min_stdev."),
    SINGLE_ENDPOINT(
            Severity.WARNING,
            "gateway-single-endpoint",
            "One endpoint: the gateway stage does nothing",
            "With one endpoint there are no peers to compare with, and the guard never empties the candidate list, "
                    + "so an ejected endpoint is put straight back."),
    MIN_REQUESTS_UNREACHABLE(
            Severity.WARNING,
            "gateway-min-requests-unreachable",
            "min_requests is never reached within the window",
            "An endpoint is scored only with min_requests attempts in its window, per gateway process; at this "
                    + "traffic, spread over the endpoints and processes, none gets that many, so only the hard trip ejects."),
    ORDERED_STARVES_PEERS(
            Severity.WARNING,
            "gateway-ordered-starves-peers",
            "ordered routing starves the peers",
            "With routing ordered every request goes to the first endpoint in the list; the others get attempts only "
                    + "as fallbacks or while it is ejected, so they are not scored and the first has no peers to be "
                    + "compared with."),
    HAIR_TRIGGER(
            Severity.WARNING,
            "gateway-hair-trigger",
            "consecutive_failures 1 is a hair trigger",
            "The hard trip ejects at the first failure: a healthy endpoint failing 1 % of its requests at random is "
                    + "ejected every 100 attempts on average."),
    NO_FALLBACKS(
            Severity.NOTE,
            "gateway-no-fallbacks",
            "fallbacks 0: callers see every failed attempt",
            "With no fallbacks a failed attempt is the caller's failed request; ejection only shortens how long an "
                    + "endpoint keeps failing requests."),
    MODE_OFF(
            Severity.WARNING,
            "gateway-mode-off",
            "mode off: the gateway stage does nothing",
            "In mode off outcomes are not recorded and nothing is ejected or reported."),
    MODE_SHADOW(
            Severity.NOTE,
            "gateway-mode-shadow",
            "mode shadow: nothing is removed",
            "In mode shadow the stage judges as in prod and records would_eject, but removes no endpoint.");

    private final Text text;

    GatewayRule(Severity defaultSeverity, String id, String title, String help) {
        this.text = new Text(defaultSeverity, id, title, help);
    }

    @Override
    public Text text() {
        return text;
    }
}
