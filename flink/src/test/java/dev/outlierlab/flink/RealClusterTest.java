package dev.outlierlab.flink;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
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
 * The job on a real Flink cluster, not the in-process MiniCluster: a standalone session cluster of separate JVMs
 * on 127.0.0.1 (a JobManager and two TaskManagers of two slots, {@link StandaloneCluster}), the job jar submitted
 * through Flink's own command-line client ({@code flink run -p N}). Its reports are local {@code replay}'s at
 * parallelism 1, 2 and 4, its tune is local {@code tune}'s with every run step at the parallelism asked for (the
 * REST API's job vertices), a TaskManager killed while the job runs costs a restart and not the answer, and in
 * application mode (the JobManager runs {@code main}) the application ends FINISHED with the report written.
 * Skipped, with the reason, only where the JobManager's JVM cannot start.
 */
@Timeout(value = 12, unit = TimeUnit.MINUTES)
class RealClusterTest {
    private static final Duration START = Duration.ofSeconds(120);
    private static final Duration JOB = Duration.ofSeconds(240);

    @TempDir
    Path dir;

    @Test
    void aSessionClusterOfSeparateJvmsGivesTheLocalAnswersAndSurvivesALostTaskManager() throws Exception {
        ClusterLayout layout = ClusterLayout.of(dir);
        Path logs = dir.resolve("logs");
        Files.createDirectories(logs);
        List<String> small = FleetLogs.write(logs, "envoy", 6, 15_000, 5);
        Path big = dir.resolve("big");
        Files.createDirectories(big);
        // large enough that the job still runs when its tasks are seen on both TaskManagers, on an idle machine too
        // (640,000 lines were done before the first look on two idle cores)
        List<String> large = FleetLogs.write(big, "envoy", 16, 150_000, 9);
        // heartbeats every 2 s (default 10 s): a killed TaskManager is found lost after two missed ones, so that
        // the test takes seconds; the job's restarts are the same under the default heartbeat (docs/flink.md)
        try (StandaloneCluster cluster = new StandaloneCluster(
                dir.resolve("session"), layout, Map.of("heartbeat.interval", "2000", "heartbeat.timeout", "20000"))) {
            StandaloneCluster.Jvm second = cluster.startSession(2, START).get(2);

            List<String> replay = replayArgs(small);
            Runs local = Runs.local(replay);
            assertThat(local.status()).as(local.err()).isZero();
            assertThat(local.out()).contains("detectors    ");
            for (int p : new int[] {1, 2, 4}) {
                assertThat(cluster.run("replay-p" + p, p, replay, JOB))
                        .as("parallelism " + p)
                        .isEqualTo(local.out());
            }

            List<String> tune = Runs.smallTune(2);
            Runs localTune = Runs.local(tune);
            assertThat(localTune.status()).as(localTune.err()).isZero();
            assertThat(cluster.run("tune-p4", 4, tune, JOB)).isEqualTo(localTune.out());
            List<int[]> runSteps = parallelismOf(cluster, "outlier-lab tune: ", "tune runs");
            // every step of the search (baselines, screening, finalists, and the waves of runs that stand for others)
            // spread over all four slots, however few KB of runs it was handed; a step of fewer runs over one a run
            assertThat(runSteps).hasSizeGreaterThanOrEqualTo(2);
            assertThat(runSteps)
                    .allSatisfy(
                            step -> assertThat(step[1]).as(step[0] + " runs").isEqualTo(Math.min(4, step[0])));
            assertThat(runSteps).anySatisfy(step -> assertThat(step[0]).isGreaterThan(4));

            List<String> large4 = replayArgs(large);
            Runs localLarge = Runs.local(large4);
            assertThat(localLarge.status()).as(localLarge.err()).isZero();
            StandaloneCluster.Jvm client = cluster.submit("replay-killed", List.of(), 4, large4);
            String job = awaitRunningTasks(cluster, client, "outlier-lab replay of " + large.size() + " logs");
            StandaloneCluster.kill(second.process());
            String out = StandaloneCluster.await(client, JOB);
            assertThat(client.process().exitValue())
                    .as(client.tail() + cluster.tails())
                    .isZero();
            assertThat(StandaloneCluster.withoutClientLines(out)).isEqualTo(localLarge.out());
            JsonNode exceptions = cluster.rest("/jobs/" + job + "/exceptions");
            assertThat(exceptions.path("exceptionHistory").path("entries").size())
                    .as("the job failed over")
                    .isPositive();
        }

        Path report = dir.resolve("application-report");
        List<String> appArgs = new ArrayList<>(replayArgs(small));
        appArgs.addAll(List.of("--output-dir", report.toString()));
        Runs local = Runs.local(replayArgs(small));
        try (StandaloneCluster application = new StandaloneCluster(
                dir.resolve("application"),
                layout,
                Map.of("execution.shutdown-on-application-finish", "false", "parallelism.default", "2"))) {
            List<String> jar = List.of(layout.jobJar().toString());
            List<String> args = new ArrayList<>(List.of("--job-classname", FlinkMain.class.getName()));
            args.addAll(appArgs);
            StandaloneCluster.Jvm jobManager = application.startJobManager(StandaloneCluster.APPLICATION, jar, args);
            application.startTaskManager("application-taskmanager", jar);
            JsonNode app = awaitApplication(application, jobManager);
            assertThat(app.path("status").asText()).as(application.tails()).isEqualTo("FINISHED");
            assertThat(Files.readString(report.resolve("report.txt"))).isEqualTo(local.out());
            assertThat(Files.readString(jobManager.err())).doesNotContain("closed externally");
        }
    }

    private static List<String> replayArgs(List<String> logs) {
        List<String> args = new ArrayList<>(List.of("replay"));
        args.addAll(logs);
        args.addAll(List.of(
                "--log-format",
                "envoy",
                "--compare-set",
                "outlier_detection.max_ejection_percent=34",
                "--events",
                "30"));
        return args;
    }

    /** Each job named {@code job} N runs, in the order they started: {N, the parallelism of {@code vertex}}. */
    private static List<int[]> parallelismOf(StandaloneCluster cluster, String job, String vertex) {
        List<int[]> out = new ArrayList<>();
        List<JsonNode> jobs = new ArrayList<>();
        cluster.rest("/jobs/overview").path("jobs").forEach(jobs::add);
        jobs.sort((a, b) ->
                Long.compare(a.path("start-time").asLong(), b.path("start-time").asLong()));
        for (JsonNode j : jobs) {
            if (j.path("name").asText().startsWith(job)) {
                for (JsonNode v :
                        cluster.rest("/jobs/" + j.path("jid").asText()).path("vertices")) {
                    if (v.path("name").asText().contains(vertex)) {
                        String runs =
                                j.path("name").asText().substring(job.length()).replace(" runs", "");
                        out.add(new int[] {
                            Integer.parseInt(runs.trim()), v.path("parallelism").asInt()
                        });
                    }
                }
            }
        }
        return out;
    }

    /** Waits until the job named {@code name} has tasks running in more slots than one TaskManager has; its id. */
    private static String awaitRunningTasks(StandaloneCluster cluster, StandaloneCluster.Jvm client, String name)
            throws InterruptedException {
        long until = System.nanoTime() + JOB.toNanos();
        while (System.nanoTime() < until && client.process().isAlive()) {
            JsonNode overview = cluster.rest("/jobs/overview");
            if (overview != null) {
                for (JsonNode j : overview.path("jobs")) {
                    if (j.path("name").asText().equals(name)
                            && j.path("tasks").path("running").asInt() >= 3) {
                        return j.path("jid").asText();
                    }
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the job " + name + " never ran: " + client.tail() + cluster.tails());
    }

    /** Waits until the one application ends; its overview. */
    private static JsonNode awaitApplication(StandaloneCluster cluster, StandaloneCluster.Jvm jobManager)
            throws InterruptedException {
        long until = System.nanoTime() + JOB.toNanos();
        JsonNode last = null;
        while (System.nanoTime() < until && jobManager.process().isAlive()) {
            JsonNode apps = cluster.rest("/applications/overview");
            if (apps != null && apps.path("applications").size() == 1) {
                last = apps.path("applications").get(0);
                String status = last.path("status").asText();
                if (!status.equals("CREATED") && !status.equals("RUNNING")) {
                    return last;
                }
            }
            Thread.sleep(250);
        }
        throw new AssertionError("the application did not end (" + last + "): " + cluster.tails());
    }
}
