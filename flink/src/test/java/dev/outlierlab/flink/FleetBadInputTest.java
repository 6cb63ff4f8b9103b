package dev.outlierlab.flink;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input gets the command's one message and exit status 2 from the job as from {@code replay}, and nothing
 * partial is written as a report; directories and globs are read as the files they hold, and {@code --output-dir}
 * writes the report last with each detector's decisions.
 */
class FleetBadInputTest {
    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .build());

    @TempDir
    Path dir;

    private static List<String> args(String... a) {
        return new ArrayList<>(Arrays.asList(a));
    }

    private static void sameRefusal(List<String> args) {
        Runs local = Runs.local(args);
        Runs job = Runs.flink(args, 2);
        assertThat(local.status()).isEqualTo(2);
        assertThat(job.status()).as(job.err()).isEqualTo(2);
        assertThat(job.err()).isEqualTo(local.err()).startsWith("outlier-lab: ").doesNotContain("Exception");
        assertThat(job.out()).isEmpty();
    }

    @Test
    void aPathThatDoesNotExistIsRefusedAsReplayRefusesIt() {
        sameRefusal(args("replay", dir.resolve("nothere.log").toString(), "--log-format", "envoy"));
    }

    @Test
    void aMeshLogWithoutClusterUnderIstioIsRefusedRatherThanGivenOneRuleForEverySubset() {
        String examples = "../docs/examples/";
        List<String> a = args(
                "replay",
                examples + "replay/mesh-subsets/frontend-6f7c9-pqrst.log",
                "--istio",
                examples + "payments-destination-rule.yaml");
        Runs job = Runs.flink(a, 1);
        assertThat(job.status()).as(job.err()).isEqualTo(2);
        assertThat(job.err())
                .startsWith("outlier-lab: --engine flink: --istio without --cluster")
                .contains("give --cluster outbound|PORT|SUBSET|FQDN")
                .doesNotContain("Exception");
        assertThat(job.out()).isEmpty();
        Runs local = Runs.local(a);
        assertThat(local.status()).as(local.err()).isZero();
        assertThat(local.out()).contains("subset v2");
    }

    @Test
    void aFormatThatDoesNotParseIsRefusedWithTheFirstBadLines() throws Exception {
        Path garbage = dir.resolve("garbage.log");
        Files.writeString(garbage, "garbage\nmore garbage\n");
        sameRefusal(args("replay", garbage.toString(), "--log-format", "envoy"));
        sameRefusal(args("replay", garbage.toString()));
    }

    @Test
    void aLogThatCannotBeReadToItsEndFailsTheJobWithTheFileAndLineAndWritesNoReport() throws Exception {
        List<String> logs = FleetLogs.write(dir, "envoy", 2, 20_000, 3);
        byte[] text = Files.readAllBytes(Path.of(logs.get(1)));
        Path gz = dir.resolve("proxy-01.log.gz");
        try (OutputStream o = new GZIPOutputStream(Files.newOutputStream(gz))) {
            o.write(text);
        }
        byte[] zipped = Files.readAllBytes(gz);
        Files.write(gz, Arrays.copyOf(zipped, zipped.length / 2));
        List<String> a = args("replay", logs.get(0), gz.toString(), "--log-format", "envoy");
        sameRefusal(a);
        Path out = dir.resolve("out");
        a.addAll(List.of("--output-dir", out.toString()));
        Runs job = Runs.flink(a, 2);
        assertThat(job.status()).isEqualTo(2);
        assertThat(job.err()).contains("proxy-01.log.gz:").contains("cannot be read");
        assertThat(out.resolve("report.txt")).doesNotExist();
    }

    @Test
    void garbageStopsTheJobsReaderAtMaxBadLinesAsItStopsReplays() throws Exception {
        Path garbage = dir.resolve("garbage.log");
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 200_000; i++) {
            text.append("garbage ").append(i).append('\n');
        }
        Files.writeString(garbage, text);
        sameRefusal(args("replay", garbage.toString(), "--log-format", "envoy", "--max-bad-lines", "10"));
        Runs job = Runs.flink(args("replay", garbage.toString(), "--log-format", "envoy", "--max-bad-lines", "10"), 1);
        // the read stopped at the eleventh bad line, as replay's does, instead of reading 200,000
        assertThat(job.err()).startsWith("outlier-lab: 11 bad lines of 11, more than --max-bad-lines 10 (10)");
        Runs share = Runs.flink(args("replay", garbage.toString(), "--log-format", "envoy"), 1);
        assertThat(share.status()).isEqualTo(2);
        assertThat(share.err())
                .startsWith("outlier-lab: 10000 bad lines of 10000, more than --max-bad-lines 1% (100)"
                        + " (the reading stopped");
    }

    @Test
    void aParallelismBeyondTheBoundIsOneMessageBeforeAnythingRuns() {
        for (String command : new String[] {"replay", "tune", "sweep"}) {
            List<String> a = command.equals("replay")
                    ? args("replay", dir.resolve("x.log").toString())
                    : command.equals("tune")
                            ? args("tune", "--hosts", "6", "--rps", "600")
                            : args("sweep", "--vary", "outlier_detection.max_ejection_percent=10,34");
            Runs job = Runs.flink(a, 100_000);
            assertThat(job.status()).as(command).isEqualTo(2);
            assertThat(job.err())
                    .as(command)
                    .isEqualTo("outlier-lab: --parallelism 100000: expected 1 to 32,768 " + "(Flink's bound)\n");
            a.addAll(List.of("--engine", "flink", "--parallelism", "100000"));
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int status = FlinkMain.execute(
                    a.toArray(String[]::new),
                    new PrintWriter(out, true),
                    new PrintWriter(err, true),
                    Parallelism.LOCAL);
            assertThat(status).isEqualTo(2);
            assertThat(err.toString())
                    .startsWith("outlier-lab: --parallelism 100000: expected 1 to 64 on the local " + "MiniCluster");
        }
    }

    @Test
    void aLogOfTwoHundredThousandHostsIsRefusedAsReplayRefusesIt() throws Exception {
        Path log = dir.resolve("hosts.log");
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 200_000; i++) {
            text.append(String.format(
                    "[2026-11-30T00:%02d:%02d.%03dZ] \"GET /api HTTP/1.1\" 200 - 0 120 5 - \"-\" "
                            + "\"bench\" \"-\" \"api\" \"10.%d.%d.%d:8080\"%n",
                    i / 60_000, i / 1000 % 60, i % 1000, i >> 16, (i >> 8) & 255, i & 255));
        }
        Files.writeString(log, text);
        sameRefusal(args("replay", log.toString(), "--log-format", "envoy"));
    }

    @Test
    void aRelativeOutputDirectoryIsRefused() throws Exception {
        List<String> logs = FleetLogs.write(dir, "envoy", 1, 100, 3);
        Runs job = Runs.flink(args("replay", logs.get(0), "--log-format", "envoy", "--output-dir", "out"), 1);
        assertThat(job.status()).isEqualTo(2);
        assertThat(job.err())
                .isEqualTo("outlier-lab: --output-dir out: expected an absolute path or a file system "
                        + "URI (s3://..., hdfs://...); the report and each detector's file are written on different machines "
                        + "of a cluster, which share no working directory\n");
    }

    @Test
    void aLineWithoutTheInstanceFieldIsRefusedByTheJob() throws Exception {
        Path log = dir.resolve("app.jsonl");
        Files.writeString(
                log,
                "{\"start_time\":\"2026-01-01T00:00:00.000Z\",\"response_code\":200,\"response_flags\":\"-\","
                        + "\"duration\":0,\"upstream_host\":\"h1\",\"upstream_cluster\":\"c\",\"pod\":\"a\"}\n"
                        + "{\"start_time\":\"2026-01-01T00:00:01.000Z\",\"response_code\":200,\"response_flags\":\"-\","
                        + "\"duration\":0,\"upstream_host\":\"h1\",\"upstream_cluster\":\"c\"}\n");
        Runs job = Runs.flink(args("replay", log.toString(), "--log-format", "json", "--instance-field", "pod"), 1);
        assertThat(job.status()).as(job.out()).isEqualTo(2);
        assertThat(job.err())
                .isEqualTo("outlier-lab: --instance-field pod: " + log + ":2 names no proxy instance "
                        + "(cluster c, 1 line); the job keeps a detector per cluster and proxy instance, so every line must "
                        + "name its instance\n");
        assertThat(job.out()).isEmpty();
    }

    @Test
    void aDirectoryAndAGlobAreTheirFilesInNameOrderAndOutputWritesTheReportAndEachDetector() throws Exception {
        Path logs = dir.resolve("logs");
        Files.createDirectories(logs);
        List<String> files = FleetLogs.write(logs, "istio", 3, 5_000, 11);
        List<String> localArgs = args("replay");
        localArgs.addAll(files);
        localArgs.addAll(List.of("--log-format", "istio"));
        Runs local = Runs.local(localArgs);
        assertThat(local.status()).as(local.err()).isZero();
        String body = local.out().substring(local.out().indexOf('\n'));
        Runs directory = Runs.flink(args("replay", logs.toString(), "--log-format", "istio"), 2);
        assertThat(directory.out()).isEqualTo("outlier-lab replay: " + logs + " (format istio)" + body);
        Runs glob = Runs.flink(args("replay", logs + "/proxy-*.log", "--log-format", "istio"), 2);
        assertThat(glob.out()).isEqualTo("outlier-lab replay: " + logs + "/proxy-*.log (format istio)" + body);

        Path out = dir.resolve("out");
        Runs written = Runs.flink(
                args(
                        "replay",
                        logs.toString(),
                        "--log-format",
                        "istio",
                        "--output-dir",
                        out.toString(),
                        "--detector-event-logs"),
                2);
        assertThat(written.status()).as(written.err()).isZero();
        assertThat(written.out())
                .startsWith("outlier-lab replay: ")
                .contains(out.resolve("report.txt").toString());
        assertThat(Files.readString(out.resolve("report.txt"))).isEqualTo(directory.out());
        assertThat(Files.readString(out.resolve("detectors/000000.txt")))
                .startsWith("\n== cluster outbound|80||service-");
        assertThat(out.resolve("detectors/000000.envoy-events.log")).exists();
    }
}
