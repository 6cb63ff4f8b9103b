package dev.outlierlab.flink;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A sweep's runs as a Flink job on the MiniCluster give the local sweep's rows, in every output format. */
class FleetSweepTest {
    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .build());

    @Test
    void aSweepsRowsAreTheLocalSweepsAtParallelismTwo() {
        for (String format : new String[] {"text", "csv", "json"}) {
            List<String> args = new ArrayList<>(List.of(
                    "sweep",
                    "--vary",
                    "outlier_detection.max_ejection_percent=10,34,100",
                    "--vary",
                    "faults[0].error_rate=20,60",
                    "--set",
                    "duration=120s",
                    "--format",
                    format));
            Runs local = Runs.local(args);
            assertThat(local.status()).as(local.err()).isZero();
            assertThat(local.out().lines().count()).isGreaterThan(5);
            Runs job = Runs.flink(args, 2);
            assertThat(job.status()).as(job.err()).isZero();
            assertThat(job.out()).as(format).isEqualTo(local.out());
        }
    }

    @Test
    void aGatewaySweepsRowsAreTheLocalSweeps() {
        List<String> args = new ArrayList<>(List.of(
                "sweep",
                "../docs/examples/gateway-two-providers.yaml",
                "--vary",
                "gateway.mode=shadow,prod",
                "--vary",
                "gateway.consecutive_failures=2,3",
                "--set",
                "duration=120s"));
        Runs local = Runs.local(args);
        assertThat(local.status()).as(local.err()).isZero();
        Runs job = Runs.flink(args, 2);
        assertThat(job.status()).as(job.err()).isZero();
        assertThat(job.out()).isEqualTo(local.out());
    }

    @Test
    void aBadVaryIsTheCommandsMessage() {
        List<String> args = List.of("sweep", "--vary", "outlier_detection.max_ejection_percent=10,,34");
        Runs local = Runs.local(args);
        Runs job = Runs.flink(args, 1);
        assertThat(job.status()).isEqualTo(2).isEqualTo(local.status());
        assertThat(job.err()).isEqualTo(local.err());
    }
}
