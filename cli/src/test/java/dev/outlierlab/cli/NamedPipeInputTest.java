package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A named pipe (a FIFO, or what {@code <(zcat access.log.gz)} hands a command) cannot be opened twice: replay and
 * {@code run --trace-in} read it once, as they read standard input, and decide exactly what they decide for the
 * same bytes in a file (issue 12: "a trace from a pipe is read once, never replayed as empty"). The pipe is made
 * with {@code mkfifo} and fed from a thread; where there is no {@code mkfifo} (Windows) the tests are skipped.
 */
class NamedPipeInputTest {
    private static final String CAP34 = "outlier_detection.max_ejection_percent=34";

    @TempDir
    Path dir;

    @Test
    void anAccessLogFromANamedPipeReplaysToTheDecisionsOfTheSameFile() throws Exception {
        Path log = dir.resolve("access.log");
        CliRunner.Outcome run =
                CliRunner.run("run", "--set", "duration=50s", "--set", CAP34, "--access-log", log.toString());
        assertThat(run.exit()).as(run.err()).isZero();
        CliRunner.Outcome fromFile = CliRunner.run("replay", log.toString(), "--format=json", "--set", CAP34);
        assertThat(fromFile.exit()).as(fromFile.err()).isZero();

        Path fifo = fifo("access.fifo");
        CompletableFuture<Void> writer = feed(fifo, Files.readAllBytes(log));
        CliRunner.Outcome fromPipe = CliRunner.run("replay", fifo.toString(), "--format=json", "--set", CAP34);
        writer.get(60, TimeUnit.SECONDS);

        assertThat(fromPipe.exit()).as(fromPipe.err()).isZero();
        JsonNode file = fromFile.json();
        JsonNode pipe = fromPipe.json();
        assertThat(pipe.get("lines").get("read").asLong()).isEqualTo(30_000);
        JsonNode events = pipe.get("detectors").get(0).get("predicted").get("events");
        assertThat(events).isNotEmpty();
        assertThat(events)
                .isEqualTo(file.get("detectors").get(0).get("predicted").get("events"));
        assertThat(pipe.get("detectors").get(0).get("recorded"))
                .isEqualTo(file.get("detectors").get(0).get("recorded"));
        assertThat(pipe.get("detectors").get(0).get("predicted").get("hosts"))
                .isEqualTo(file.get("detectors").get(0).get("predicted").get("hosts"));
        assertThat(pipe).isEqualTo(file);
    }

    @Test
    void aTraceFromANamedPipeIsReadOnceAndReplayedWhole() throws Exception {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            // host-1 fails every request from 5 s to 6 s: five consecutive 5xx eject it (one of four hosts: cap 34 %)
            int host = i % 4;
            boolean failing = host == 1 && i >= 1_000 && i < 1_200;
            lines.add("{\"time\": " + (i / 200.0) + ", \"host\": \"host-" + host + "\", \"code\": "
                    + (failing ? 503 : 200) + "}");
        }
        Path trace = dir.resolve("trace.jsonl");
        Files.write(trace, lines);
        CliRunner.Outcome fromFile = CliRunner.run(
                "run", "--trace-in", trace.toString(), "--set", "duration=20s", "--set", CAP34, "--format=json");
        assertThat(fromFile.exit()).as(fromFile.err()).isZero();

        Path fifo = fifo("trace.fifo");
        CompletableFuture<Void> writer = feed(fifo, Files.readAllBytes(trace));
        CliRunner.Outcome fromPipe = CliRunner.run(
                "run", "--trace-in", fifo.toString(), "--set", "duration=20s", "--set", CAP34, "--format=json");
        writer.get(60, TimeUnit.SECONDS);

        assertThat(fromPipe.exit()).as(fromPipe.err()).isZero();
        assertThat(fromPipe.events("eject")).isNotEmpty().allMatch(e -> e.contains("host-1"));
        assertThat(fromPipe.events("eject")).isEqualTo(fromFile.events("eject"));
        assertThat(fromPipe.json().get("summary")).isEqualTo(fromFile.json().get("summary"));
        assertThat(fromPipe.json().get("summary").get("requests").asLong()).isEqualTo(2_000);
    }

    /** A new named pipe, or the test is skipped when this system cannot make one. */
    private Path fifo(String name) throws InterruptedException {
        return mkfifo(dir.resolve(name));
    }

    /** Makes the named pipe {@code fifo} with {@code mkfifo}, or skips the test when this system cannot. */
    static Path mkfifo(Path fifo) throws InterruptedException {
        int exit;
        try {
            Process p = new ProcessBuilder("mkfifo", fifo.toString())
                    .redirectErrorStream(true)
                    .start();
            exit = p.waitFor(30, TimeUnit.SECONDS) ? p.exitValue() : -1;
        } catch (IOException e) {
            exit = -1;
        }
        assumeTrue(
                exit == 0 && Files.exists(fifo),
                "mkfifo is not available on this system, so there is no named pipe to read");
        return fifo;
    }

    /**
     * Writes {@code bytes} into the pipe from another thread (opening a pipe for writing waits for its reader) and
     * closes it, which the reader sees as the end of the log.
     */
    private static CompletableFuture<Void> feed(Path fifo, byte[] bytes) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread t = new Thread(
                () -> {
                    try (OutputStream out = Files.newOutputStream(fifo)) {
                        for (int i = 0; i < bytes.length; i += 65_536) {
                            out.write(bytes, i, Math.min(65_536, bytes.length - i));
                        }
                        done.complete(null);
                    } catch (IOException | RuntimeException e) {
                        done.completeExceptionally(e);
                    }
                },
                "fifo-writer");
        t.setDaemon(true);
        t.start();
        return done;
    }
}
