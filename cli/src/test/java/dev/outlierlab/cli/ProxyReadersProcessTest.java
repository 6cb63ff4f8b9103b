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
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The proxies' readers as a user meets them, in a real process with a 64 MiB heap: a 50 MB nginx.conf, blocks
 * nested a hundred thousand deep, Caddy's JSON nested as deep, {@code /dev/zero}, an include mask over 3,000 files,
 * each one message and exit 2 within the time bound; standard output on {@code /dev/full} is an error; SIGTERM
 * during {@code tune --from nginx.conf} leaves nothing on standard output, and during {@code run --nginx ... --output
 * FILE} leaves FILE as it was and no temporary file.
 */
class ProxyReadersProcessTest {
    private static final long BOUND_SECONDS = 60; // a loaded machine; each takes a few seconds

    @TempDir
    Path dir;

    private static List<String> command(String... args) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(
                java,
                "-Xmx64m",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName()));
        command.addAll(List.of(args));
        return command;
    }

    private record Result(int exit, String out, String err) {}

    private Result run(String... args) throws IOException, InterruptedException {
        Path out = dir.resolve("stdout.txt");
        Path err = dir.resolve("stderr.txt");
        Process p = new ProcessBuilder(command(args))
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        try {
            assertThat(p.waitFor(BOUND_SECONDS, TimeUnit.SECONDS))
                    .as("ends within the bound: %s", String.join(" ", args))
                    .isTrue();
        } finally {
            p.destroyForcibly();
        }
        return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    private void assertRefused(String fragment, String... args) throws IOException, InterruptedException {
        Result r = run(args);
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).contains(fragment).doesNotContain("Exception", "\tat ", "at dev.", "OutOfMemoryError");
        assertThat(r.err().lines().count()).as(r.err()).isEqualTo(1);
        assertThat(r.err()).hasSizeLessThan(600);
    }

    @Test
    void largeDeepAndEndlessInputsEndWithinTheBoundsWithOneMessage() throws Exception {
        Path big = dir.resolve("nginx.conf");
        try (var w = Files.newBufferedWriter(big, StandardCharsets.UTF_8)) {
            w.write("http { upstream app { server a:1; server b:1; } }\n");
            String line = "    proxy_set_header X-Padding " + "p".repeat(64) + ";\n";
            for (long written = 0; written < 50L * 1024 * 1024; written += line.length()) {
                w.write(line);
            }
        }
        assertRefused("nginx.conf: the file is larger than 1 MiB", "run", "--nginx", big.toString());

        Path deep = Files.writeString(
                dir.resolve("nginx-deep.conf"),
                "http {\n  upstream app { server a:1; server b:1; }\n" + "a {".repeat(100_000) + "}".repeat(100_000)
                        + "\n}\n");
        assertRefused("nginx-deep.conf:3: blocks are nested more than 32 deep", "tune", "--from", deep.toString());

        Path json = Files.writeString(
                dir.resolve("caddy.json"), "{\"apps\": " + "[".repeat(100_000) + "]".repeat(100_000) + "}");
        assertRefused(
                "caddy.json: not valid JSON (nested deeper than the 1000 levels", "run", "--caddy", json.toString());

        assertRefused("/dev/zero:1: line 1 is longer than 262,144 characters", "run", "--caddy", "/dev/zero");
        assertRefused("/dev/urandom:1: not UTF-8 text", "run", "--haproxy", "/dev/urandom");

        Path many = Files.createDirectories(dir.resolve("conf.d"));
        for (int i = 0; i < 3000; i++) {
            Files.writeString(many.resolve(i + ".conf"), "# empty\n");
        }
        Path glob = Files.writeString(
                dir.resolve("nginx-glob.conf"), "include conf.d/*.conf;\nhttp { upstream app { server a:1; } }\n");
        assertRefused(
                "nginx-glob.conf:1: include \"conf.d/*.conf\" matches more than 100 files",
                "run",
                "--nginx",
                glob.toString());
    }

    @Test
    void aReportOnAFullDiskIsAnError() throws Exception {
        Path full = Path.of("/dev/full");
        assumeTrue(Files.exists(full) && Files.isWritable(full), "needs the /dev/full device");
        Path cfg = Files.writeString(
                dir.resolve("haproxy.cfg"), "backend app\n  server s1 a:1 check observe layer7\n  server s2 b:1\n");
        Process p = new ProcessBuilder(command("run", "--haproxy", cfg.toString()))
                .redirectOutput(full.toFile())
                .redirectError(dir.resolve("err.txt").toFile())
                .start();
        assertThat(p.waitFor(BOUND_SECONDS, TimeUnit.SECONDS)).isTrue();
        String err = Files.readString(dir.resolve("err.txt"));
        assertThat(p.exitValue()).as(err).isEqualTo(2);
        assertThat(err).contains("cannot write the output to standard output (No space left on device)");
    }

    @Test
    void sigtermDuringATuneOrARunLeavesNothingPartial() throws Exception {
        Path conf = Files.writeString(
                dir.resolve("nginx.conf"),
                "http {\n  upstream app {\n    server a:1 max_fails=3;\n    server b:1;\n    server c:1;\n  }\n"
                        + "  server { location / { proxy_pass http://app; } }\n}\n");
        Path tuneOut = dir.resolve("tune.txt");
        Process tune = new ProcessBuilder(command("tune", "--from", conf.toString(), "--rps", "600"))
                .redirectOutput(tuneOut.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        Path report = Files.writeString(dir.resolve("report.txt"), "the previous report\n");
        Process run = new ProcessBuilder(command(
                        "run",
                        "--nginx",
                        conf.toString(),
                        "--set",
                        "duration=20000s",
                        "--set",
                        "traffic.rps=20000",
                        "--yes",
                        "--output",
                        report.toString()))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            Thread.sleep(4_000); // both are well into their work: a tune takes minutes, the run hours
            assertThat(tune.isAlive()).isTrue();
            assertThat(run.isAlive()).isTrue();
            for (Process p : List.of(tune, run)) {
                Process kill = new ProcessBuilder("kill", "-TERM", Long.toString(p.pid()))
                        .inheritIO()
                        .start();
                assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
                assertThat(p.waitFor(BOUND_SECONDS, TimeUnit.SECONDS))
                        .as("ended on SIGTERM")
                        .isTrue();
            }
        } finally {
            tune.destroyForcibly();
            run.destroyForcibly();
        }
        assertThat(tuneOut).isEmptyFile();
        assertThat(Files.readString(report)).isEqualTo("the previous report\n");
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("nginx.conf", "tune.txt", "report.txt");
        }
    }
}
