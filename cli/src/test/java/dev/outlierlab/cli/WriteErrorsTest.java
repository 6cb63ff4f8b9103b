package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 27: data is never lost without a word. Every output written to a full disk ({@code /dev/full}, the
 * real device) is one message naming the option and the file, exit status 2, and the device is written in
 * place, never replaced by a file; standard output on {@code /dev/full} (run, export, sweep: a real process)
 * is the same.
 */
class WriteErrorsTest {
    private static final Path FULL = Path.of("/dev/full");

    @TempDir
    Path dir;

    @BeforeEach
    void needsTheDevice() {
        assumeTrue(
                Files.exists(FULL) && !Files.isRegularFile(FULL) && Files.isWritable(FULL),
                "needs the /dev/full device");
    }

    @Test
    void everyOutputFileOnAFullDiskIsAnErrorNamingIt() {
        CliRunner.run("run", "--access-log", "/dev/full")
                .assertRejected("--access-log /dev/full: cannot be written (No space left on device)");
        CliRunner.run("run", "--set", "outlier_detection.max_ejection_percent=100", "--event-log", "/dev/full")
                .assertRejected("--event-log /dev/full: cannot be written (No space left on device)");
        CliRunner.run("run", "--series", "/dev/full")
                .assertRejected("--series /dev/full: cannot be written (No space left on device)");
        CliRunner.run("run", example(), "--stages", "/dev/full")
                .assertRejected("--stages /dev/full: cannot be written (No space left on device)");
        assertThat(Files.isRegularFile(FULL)).as("the device is still a device").isFalse();
    }

    @Test
    void aMissingDirectoryIsNamedAndNothingPartialIsLeft() throws IOException {
        Path missing = dir.resolve("no/such/series.csv");
        CliRunner.run("run", "--series", missing.toString())
                .assertRejected("--series " + missing + ": cannot be written (no such directory)");
        try (var files = Files.list(dir)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void standardOutputOnAFullDiskIsAnErrorForRunExportAndSweep() throws Exception {
        for (String[] args : List.of(new String[] {"run"}, new String[] {"export", "--to", "envoy"}, new String[] {
            "sweep", "--vary", "outlier_detection.consecutive_5xx=3,5", "--yes"
        })) {
            Result r = process(args);
            assertThat(r.exit).as(String.join(" ", args) + ": " + r.err).isEqualTo(2);
            assertThat(r.err)
                    .contains("outlier-lab: cannot write the output to standard output (No space left on device)")
                    .doesNotContain("Exception", "\tat ");
        }
    }

    private static String example() {
        Path here = Path.of("").toAbsolutePath();
        Path root = Files.exists(here.resolve("docs")) ? here : here.getParent();
        return root.resolve("docs/examples/gateway-check.yaml").toString();
    }

    private record Result(int exit, String err) {}

    /** The real command in a JVM of its own, standard output on /dev/full. */
    private Result process(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xshare:auto",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName()));
        command.addAll(List.of(args));
        Path err = dir.resolve("err.txt");
        Process p = new ProcessBuilder(command)
                .redirectOutput(FULL.toFile())
                .redirectError(err.toFile())
                .start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("the command ends").isTrue();
        return new Result(p.exitValue(), Files.readString(err, StandardCharsets.UTF_8));
    }
}
