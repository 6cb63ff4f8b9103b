package dev.outlierlab.flink;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job's fleet report is {@code replay}'s, byte for byte, on Flink's MiniCluster at parallelism 1 and 2: a
 * million lines of 24 proxies with bad lines, compared with a second setting in the same pass, and every other
 * log format on a smaller fleet.
 */
class FleetReplayEquivalenceTest {
    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .build());

    @TempDir
    Path dir;

    @Test
    void aMillionLinesOfTwentyFourProxiesGiveReplaysReportAtParallelismOneAndTwo() throws Exception {
        List<String> args = new ArrayList<>(List.of("replay"));
        args.addAll(FleetLogs.write(dir, "envoy", 24, 1_000_000 / 24 + 1, 22));
        args.addAll(List.of(
                "--log-format",
                "envoy",
                "--set",
                "outlier_detection.consecutive_5xx=3",
                "--compare-set",
                "outlier_detection.max_ejection_percent=34",
                "--events",
                "50"));
        Runs local = Runs.local(args);
        assertThat(local.status()).as(local.err()).isZero();
        assertThat(local.out())
                .contains("detectors    24 (one per cluster and proxy instance)")
                .contains("bad line     ")
                .contains("Comparison");
        for (int parallelism : new int[] {1, 2}) {
            Runs job = Runs.flink(args, parallelism);
            assertThat(job.status()).as(job.err()).isZero();
            assertThat(job.out()).as("parallelism " + parallelism).isEqualTo(local.out());
        }
    }

    @Test
    void everyOtherFormatGivesReplaysReport() throws Exception {
        for (String format : new String[] {"istio", "istio-1.5", "json"}) {
            Path d = dir.resolve(format);
            Files.createDirectories(d);
            List<String> args = new ArrayList<>(List.of("replay"));
            args.addAll(FleetLogs.write(d, format, 20, 3_000, 7));
            args.addAll(List.of("--log-format", format, "--events", "20"));
            if (format.equals("json")) {
                args.addAll(List.of("--format", "json"));
            }
            Runs local = Runs.local(args);
            assertThat(local.status()).as(format + ": " + local.err()).isZero();
            Runs job = Runs.flink(args, 2);
            assertThat(job.status()).as(format + ": " + job.err()).isZero();
            assertThat(job.out()).as(format).isEqualTo(local.out());
        }
    }
}
