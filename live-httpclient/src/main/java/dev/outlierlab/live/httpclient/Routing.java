package dev.outlierlab.live.httpclient;

/**
 * How a {@link FailoverClient} orders one request's upstreams. Both rotate: the j-th request starts at the
 * j-th upstream of a list, and its fallbacks follow in the list's order. They differ in what happens to an
 * ejected upstream's turn.
 */
public enum Routing {
    /**
     * Envoy's round robin ({@code RoundRobinLoadBalancer}, {@code source/extensions/load_balancing_policies/
     * round_robin}): the stage first removes the ejected upstreams, then the rotation runs over the hosts left,
     * so an ejected upstream's share is spread evenly over the others (with three upstreams and one ejected,
     * each of the two gets half). In shadow the list is unchanged, so is the traffic. The Envoy profile's
     * default.
     */
    ROTATE_OVER_HEALTHY,
    /**
     * The gateway profile's router (gateway-profile.md, section 5): the rotation runs over every upstream in
     * your routing order, then the stage removes the ejected ones, so an ejected upstream's turn goes to the
     * next one in routing order (with a, b, c and b ejected: a gets its third, c gets b's and its own). The
     * gateway profile's default, as the spec says.
     */
    NEXT_IN_ORDER
}
