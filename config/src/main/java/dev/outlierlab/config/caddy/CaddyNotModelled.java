package dev.outlierlab.config.caddy;

import dev.outlierlab.config.Wording;

/**
 * What a Caddy {@code reverse_proxy} may set that the lab reads past, worded once for the Caddyfile and the JSON
 * alike: each becomes a note of {@code check} and {@code run}, so a user knows what the figures leave out.
 */
final class CaddyNotModelled {
    private CaddyNotModelled() {}

    /**
     * Active health checks. In Caddy an upstream is healthy when its active check passes <em>and</em> its passive
     * failures are under {@code max_fails} ({@code modules/caddyhttp/reverseproxy/hosts.go}, {@code
     * Upstream.Healthy}): a failing check takes it out on its own, a passing one never brings back an upstream the
     * passive count took out.
     */
    static String activeChecks(String what) {
        return "active health checks (" + what + ") are not modelled: Caddy also takes an upstream out while its "
                + "check fails; a passing check never brings back one the passive count took out";
    }

    /** {@code unhealthy_request_count}: Caddy also skips an upstream while that many of its requests are in flight. */
    static String requestCount(String value) {
        return "unhealthy_request_count " + Wording.shortPrefix(value) + " is not modelled: Caddy also skips an "
                + "upstream while it has that many requests in flight";
    }

    /** A selection policy the lab does not model; it balances at random instead. */
    static String policy(String value) {
        return "lb_policy " + Wording.shortPrefix(value) + "; the lab models random, first and round_robin, and uses "
                + "random";
    }
}
