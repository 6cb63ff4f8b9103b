package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A real mesh's logs: three sidecars' access logs in Istio's default format (docs/examples/replay/mesh, written by
 * three calling pods to the four pods of payments' subset v2, 10.0.3.12 failing in two bursts), replayed with the
 * DestinationRule. The hosts are the log's pod addresses, {@code --cluster} names the log's Envoy cluster and
 * chooses the subset's settings, and the report is in the log's clock.
 */
class MeshLogReplayTest {
    static final String DIR = "../docs/examples/replay/mesh/";
    static final String RULE = "../docs/examples/payments-destination-rule.yaml";
    static final String V2 = "outbound|8080|v2|payments.shop.svc.cluster.local";

    static CliRunner.Outcome replay(String... more) {
        String[] args = new String[5 + more.length];
        args[0] = "replay";
        args[1] = DIR + "checkout-7d9f8-fghij.log";
        args[2] = DIR + "cart-5c6b4-klmno.log";
        args[3] = DIR + "checkout-7d9f8-abcde.log";
        args[4] = "--istio=" + RULE;
        System.arraycopy(more, 0, args, 5, more.length);
        return CliRunner.run(args);
    }

    @Test
    void theRuleAndTheLogsGiveAReportOfTheIncident() {
        CliRunner.Outcome o = replay("--cluster", V2);
        assertThat(o.exit()).as(o.err()).isZero();
        String out = o.out();
        assertThat(out)
                .contains("1,080 read; skipped 0 without an upstream host, 0 without a response code, 0 of other"
                        + " clusters, 0 bad")
                .contains("  span         2026-03-02 10:00:00.004 UTC .. 10:01:29.790 UTC (89.786 s)")
                .contains("settings of payments/v2, replayed from 2026-03-02 10:00:00.004 UTC")
                .contains("consecutive_5xx 3*, interval 5s*")
                .containsPattern("10\\.0\\.3\\.12:8080 +90 +18 +20\\.00\n")
                .doesNotContain("host-0", "seed 1", "bookstore-search");
        // the decisions in the log's clock, the seconds from the start beside it
        assertThat(out)
                .containsPattern("2 x 10:00:2\\d\\.\\d{3} \\(2\\d\\.\\d{3} s\\), 10:01:0\\d\\.\\d{3} "
                        + "\\(6\\d\\.\\d{1,3} s\\) 10\\.0\\.3\\.12:8080 eject");
        // instances in name order whatever order the files were given in
        int cart = out.indexOf("instance " + DIR + "cart-5c6b4-klmno.log");
        int abcde = out.indexOf("instance " + DIR + "checkout-7d9f8-abcde.log");
        int fghij = out.indexOf("instance " + DIR + "checkout-7d9f8-fghij.log");
        assertThat(cart).isPositive().isLessThan(abcde);
        assertThat(abcde).isLessThan(fghij);
        // the total across the three sidecars
        assertThat(out)
                .contains("== total across 3 detectors (3 proxies, 1 cluster) ==")
                .contains("  requests      1,080, 54 failed (5.00 %)")
                .containsPattern("10\\.0\\.3\\.12:8080 +270 +54 +6 ");
    }

    @Test
    void hostsIsAnUpperBound() {
        assertThat(replay("--cluster", V2, "--hosts", "4").exit()).isZero();
        replay("--cluster", V2, "--hosts", "3").assertRejected("--hosts 3: the log names 4 hosts for cluster " + V2);
    }

    @Test
    void aClusterNoRuleAppliesToIsNamed() {
        replay("--cluster", "outbound|8080|v3|payments.shop.svc.cluster.local")
                .assertRejected("no DestinationRule applies to the cluster outbound|8080|v3|payments.shop.svc.cluster"
                        + ".local (host payments.shop.svc.cluster.local, subset v3, port 8080)");
    }
}
