package dev.outlierlab.flink;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Under {@code --istio} the job's report says its fixes in the DestinationRule's fields
 * ({@code trafficPolicy.outlierDetection.*}) and gives the EnvoyFilter patch where no field can, byte for byte
 * as local {@code replay --istio} does: three sidecars' logs of a subset with one pod failing in bursts.
 */
class FleetIstioTest {
    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .build());

    private static final String EXAMPLES = "../docs/examples/";

    @Test
    void fixesNameTheDestinationRulesFieldsAsLocalReplayDoes() {
        List<String> args = new ArrayList<>(List.of("replay"));
        for (String pod : new String[] {"cart-5c6b4-klmno", "checkout-7d9f8-abcde", "checkout-7d9f8-fghij"}) {
            args.add(EXAMPLES + "replay/mesh/" + pod + ".log");
        }
        args.addAll(List.of(
                "--istio",
                EXAMPLES + "payments-destination-rule.yaml",
                "--cluster",
                "outbound|8080|v2|payments.shop.svc.cluster.local",
                "--set",
                "outlier_detection.max_ejection_percent=10",
                "--events",
                "5"));
        Runs local = Runs.local(args);
        assertThat(local.status()).as(local.err()).isZero();
        assertThat(local.out())
                .contains("fix           trafficPolicy.outlierDetection.maxEjectionPercent 25 (the smallest that admits"
                        + " one host of 4)")
                .doesNotContain("fix           max_ejection_percent");
        Runs job = Runs.flink(args, 2);
        assertThat(job.status()).as(job.err()).isZero();
        assertThat(job.out()).isEqualTo(local.out());
    }
}
