package dev.outlierlab.accesslog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outlierlab.config.InputException;
import java.util.List;
import org.junit.jupiter.api.Test;

class TrafficFactsTest {
    private static final long T0 = 1_767_225_600_000_000_000L;

    private static LogTraffic.Group group(String cluster, String instance, long spanNanos, long failsOfC) {
        return new LogTraffic.Group(
                cluster,
                instance,
                List.of(
                        new LogTraffic.HostCount("a", 3000, 30),
                        new LogTraffic.HostCount("b", 3000, 30),
                        new LogTraffic.HostCount("c", 3000, failsOfC)),
                T0,
                T0 + spanNanos);
    }

    private static LogTraffic log(LogTraffic.Group... groups) {
        return new LogTraffic(List.of(groups), BadLines.limitedTo(0, false));
    }

    @Test
    void rateHostsCallersAndTheHealthyPoolsErrorRate() {
        TrafficFacts f = TrafficFacts.of(
                log(group("search", "p1", 60_000_000_000L, 900), group("search", "p2", 60_000_000_000L, 900)), "x.log");
        // 18,000 requests over 60 s; host c fails 30 %, above the pool's 10.7 %, so the base rate is a's and b's 1 %
        assertThat(f)
                .isEqualTo(
                        new TrafficFacts(
                                300,
                                3,
                                2,
                                10_000,
                                "from the log x.log: 18,000 requests over 60 s, 300 rps to 3 hosts (100 rps a host) from 2 callers"
                                        + " (150 rps a caller); base error rate 1.00 % over the 2 hosts that fail no more than the pool"));
        f.requireRate("x.log");
    }

    @Test
    void aLogOfTwoSecondsHasNoRate() {
        TrafficFacts f = TrafficFacts.of(log(group("search", "", 2_000_000_000L, 900)), "x.log");
        assertThat(f.rps()).isZero();
        assertThat(f.said())
                .isEqualTo("from the log x.log: 9,000 requests over 2.0 s, under the 5 s a rate can be measured from");
        assertThatThrownBy(() -> f.requireRate("x.log"))
                .hasMessage("--from-log x.log: 9,000 requests over 2.0 s, under the 5 s a rate can be measured from;"
                        + " give the cluster's rate with --rps");
    }

    @Test
    void twoClustersAnOutageAndAnEmptyLogAreRefused() {
        assertThatThrownBy(() -> TrafficFacts.of(
                        log(group("search", "", 60_000_000_000L, 30), group("cart", "", 60_000_000_000L, 30)), "x.log"))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("the log has 2 upstream clusters (cart, search); tune one at a time");
        LogTraffic.Group down = new LogTraffic.Group(
                "search", "", List.of(new LogTraffic.HostCount("a", 1000, 600)), T0, T0 + 60_000_000_000L);
        assertThatThrownBy(() -> TrafficFacts.of(log(down), "x.log"))
                .hasMessageContaining("every host fails 60.0 % of its requests or more: an outage");
        assertThatThrownBy(() -> TrafficFacts.of(log(), "x.log"))
                .hasMessage("--from-log x.log: no line reached an upstream host; no traffic to take");
    }
}
