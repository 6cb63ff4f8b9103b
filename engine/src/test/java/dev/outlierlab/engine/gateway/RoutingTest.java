package dev.outlierlab.engine.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outlierlab.engine.InvalidConfigException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The three routing orders of the lab's model (docs/model.md), and the routing settings' validation. */
class RoutingTest {
    private static List<String> lists(CandidateRouter router, int n, int requests) {
        List<String> out = new ArrayList<>();
        for (int r = 0; r < requests; r++) {
            int start = router.next();
            StringBuilder s = new StringBuilder();
            for (int k = 0; k < n; k++) {
                s.append(router.list()[start + k]);
            }
            out.add(s.toString());
        }
        return out;
    }

    @Test
    void orderedIsAlwaysTheListedOrder() {
        assertThat(lists(RoundRobinRouter.listedOrder(3), 3, 3)).containsExactly("012", "012", "012");
    }

    @Test
    void roundRobinStartsAtTheRequestNumberAndWraps() {
        assertThat(lists(new RoundRobinRouter(3), 3, 4)).containsExactly("012", "120", "201", "012");
    }

    @Test
    void smoothWeightedGivesNginxsSequenceForFiveOneOne() {
        // nginx's own example (ngx_http_upstream_round_robin.c): weights 5, 1, 1 give a a b a c a a
        List<String> firsts = lists(new SmoothWeightedRouter(new int[] {5, 1, 1}), 3, 14).stream()
                .map(s -> "abc".substring(s.charAt(0) - '0', s.charAt(0) - '0' + 1))
                .toList();
        assertThat(String.join("", firsts)).isEqualTo("aabacaa" + "aabacaa");
        assertThat(lists(new SmoothWeightedRouter(new int[] {5, 1, 1}), 3, 3)).containsExactly("012", "012", "102");
    }

    @Test
    void weightsMustMatchTheEndpoints() {
        RoutingConfig weighted = new RoutingConfig(RoutingStrategy.WEIGHTED, List.of(3, 1), 1);
        assertThatThrownBy(() -> weighted.validateFor(3))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessage("routing.weights: [3, 1] is not allowed; expected one positive whole number per endpoint"
                        + " (3 endpoints, 2 weights)");
        assertThatThrownBy(() -> new RoutingConfig(RoutingStrategy.WEIGHTED, List.of(3, 0), 1))
                .hasMessageStartingWith("routing.weights[1]: 0 is not allowed");
        assertThatThrownBy(() -> new RoutingConfig(RoutingStrategy.ROUND_ROBIN, List.of(1), 0))
                .hasMessageContaining("no weights unless strategy is weighted");
        assertThatThrownBy(() -> new RoutingConfig(RoutingStrategy.ORDERED, List.of(), -1))
                .hasMessageStartingWith("routing.fallbacks: -1");
        assertThatThrownBy(() -> RoutingStrategy.parse("routing.strategy", "random"))
                .hasMessage(
                        "routing.strategy: \"random\" is not allowed; expected one of ordered, round_robin, weighted");
    }
}
