package dev.outlierlab.flink;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The two deployments docs/flink.md documents, with the jars the build packages (so it runs after {@code package},
 * as an integration test) on a standalone session cluster of separate JVMs ({@link StandaloneCluster}):
 *
 * <ul>
 *   <li>the job's libraries in the cluster's {@code lib/} ({@code target/outlier-lab-flink-lib.jar} beside Flink's
 *       own jars, on the class path of the JobManager, both TaskManagers and the client, as Flink's scripts build
 *       it) and the small job jar ({@code target/outlier-lab-flink-job.jar}) submitted with Flink's client as the
 *       page shows it, under the settings it recommends ({@link StandaloneCluster#RECOMMENDED}): {@code flink run
 *       -m HOST:PORT -p N JOBJAR replay LOGS --output-dir DIR}, then a {@code tune};
 *   <li>the shaded job jar ({@code target/outlier-lab-flink.jar}) submitted to a cluster of Flink alone.
 * </ul>
 *
 * <p>Each report is local {@code replay}'s (and {@code tune}'s) byte for byte. Skipped, with the reason, only where
 * the JobManager's JVM cannot start.
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class PackagedDeploymentIT {
    private static final Duration START = Duration.ofSeconds(120);
    private static final Duration JOB = Duration.ofSeconds(240);
    private static final Path TARGET = Path.of("target").toAbsolutePath();

    @TempDir
    Path dir;

    @Test
    void theLibrariesInLibAndTheSmallJobJarThenTheShadedJarGiveTheLocalAnswers() throws Exception {
        Path libJar = TARGET.resolve("outlier-lab-flink-lib.jar");
        Path jobJar = TARGET.resolve("outlier-lab-flink-job.jar");
        Path shadedJar = TARGET.resolve("outlier-lab-flink.jar");
        assertThat(List.of(libJar, jobJar, shadedJar))
                .allSatisfy(j -> assertThat(j).isRegularFile());
        // the job's own classes only: its libraries are in lib/ (and, for parent-first resolution, its classes too)
        assertThat(Files.size(jobJar)).isLessThan(400_000);
        assertThat(Files.size(libJar)).isGreaterThan(10_000_000);

        Path logs = dir.resolve("logs");
        Files.createDirectories(logs);
        List<String> replay = new ArrayList<>(List.of("replay"));
        replay.addAll(FleetLogs.write(logs, "envoy", 6, 15_000, 11));
        replay.addAll(List.of("--log-format", "envoy", "--events", "30"));
        Runs local = Runs.local(replay);
        assertThat(local.status()).as(local.err()).isZero();
        assertThat(local.out()).contains("detectors    ");

        ClusterLayout withLib = ClusterLayout.installed(dir.resolve("flink-lib-home"), jobJar, List.of(libJar));
        assertThat(withLib.flinkClassPath())
                .contains(dir.resolve("flink-lib-home/lib/outlier-lab-flink-lib.jar")
                        .toString());
        // with the settings docs/flink.md recommends for it: the project's classes resolved from lib/
        try (StandaloneCluster cluster =
                new StandaloneCluster(dir.resolve("session-lib"), withLib, StandaloneCluster.RECOMMENDED)) {
            cluster.startSession(2, START);
            // as docs/flink.md: the JobManager named with -m, four slots over both TaskManagers, the report written
            // by main (here the client) and each detector's section by the TaskManager that replayed it
            Path report = dir.resolve("report");
            List<String> args = new ArrayList<>(
                    List.of("run", "-m", "127.0.0.1:" + cluster.restPort, "-p", "4", jobJar.toString()));
            args.addAll(replay);
            args.addAll(List.of("--output-dir", report.toString()));
            StandaloneCluster.Jvm client = cluster.client("replay-lib-p4", args);
            StandaloneCluster.await(client, JOB);
            assertThat(client.process().exitValue())
                    .as(client.tail() + cluster.tails())
                    .isZero();
            assertThat(Files.readString(report.resolve("report.txt"))).isEqualTo(local.out());
            try (var sections = Files.list(report.resolve("detectors"))) {
                assertThat(sections.count()).isPositive();
            }

            List<String> tune = Runs.smallTune(2);
            Runs localTune = Runs.local(tune);
            assertThat(localTune.status()).as(localTune.err()).isZero();
            assertThat(cluster.run("tune-lib-p2", 2, tune, JOB)).isEqualTo(localTune.out());
        }

        // the shaded jar on Flink alone: every library comes from the jar submitted
        ClusterLayout flinkAlone = ClusterLayout.installed(dir.resolve("flink-home"), shadedJar, List.of());
        assertThat(flinkAlone.flinkClassPath()).noneMatch(j -> j.contains("outlier-lab"));
        try (StandaloneCluster cluster = new StandaloneCluster(dir.resolve("session-shaded"), flinkAlone, Map.of())) {
            cluster.startSession(1, START);
            assertThat(cluster.run("replay-shaded-p2", 2, replay, JOB)).isEqualTo(local.out());
        }
    }
}
