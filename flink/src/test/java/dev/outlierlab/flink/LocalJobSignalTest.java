package dev.outlierlab.flink;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --engine flink} never leaves its job JVM behind: the command ({@code dev.outlierlab.cli.Main} in a JVM
 * of its own, as {@code ./outlier-lab} runs it) starts the job's JVM ({@link LocalJob}); a real SIGTERM to the
 * command (what a CI job's timeout sends) ends both, and so does a SIGKILL, which runs no shutdown hook (the
 * job's JVM sees its parent gone).
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class LocalJobSignalTest {
    @TempDir
    Path dir;

    @Test
    void theJobJvmEndsWithTheCommandOnSigtermAndOnSigkill() throws Exception {
        ClusterLayout layout = ClusterLayout.of(dir);
        Path lib = dir.resolve("flink-lib");
        Files.createDirectories(lib);
        for (String jar : layout.flinkClassPath()) {
            Path p = Path.of(jar);
            if (Files.isRegularFile(p)) {
                Files.createSymbolicLink(lib.resolve(p.getFileName()), p.toAbsolutePath());
            }
        }
        for (boolean forcibly : new boolean[] {false, true}) {
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp",
                    layout.jobJar() + File.pathSeparator + lib.resolve("*"),
                    "dev.outlierlab.cli.Main",
                    "tune",
                    "--hosts",
                    "6",
                    "--rps",
                    "600",
                    "--engine",
                    "flink",
                    "--parallelism",
                    "1"));
            ProcessBuilder b = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("command-" + forcibly + ".out").toFile());
            b.environment().put("OUTLIER_LAB_FLINK_DIR", dir.toString());
            Process parent = b.start();
            try {
                ProcessHandle child = awaitChild(parent);
                Thread.sleep(3_000); // the job's JVM is starting its MiniCluster
                assertThat(child.isAlive()).isTrue();
                if (forcibly) {
                    parent.destroyForcibly();
                } else {
                    parent.destroy(); // SIGTERM
                }
                assertThat(parent.waitFor(30, TimeUnit.SECONDS))
                        .as("the command ended")
                        .isTrue();
                boolean ended = child.onExit()
                                .completeOnTimeout(null, 30, TimeUnit.SECONDS)
                                .join()
                        != null;
                assertThat(ended)
                        .as((forcibly ? "SIGKILL" : "SIGTERM") + ": the job's JVM ended with the command")
                        .isTrue();
                if (!forcibly) {
                    assertThat(parent.exitValue()).isEqualTo(143);
                }
            } finally {
                parent.descendants().forEach(ProcessHandle::destroyForcibly);
                parent.destroyForcibly();
            }
        }
        try (Stream<Path> links = Files.list(lib)) {
            for (Path link : (Iterable<Path>) links::iterator) {
                Files.delete(link);
            }
        }
    }

    private static ProcessHandle awaitChild(Process parent) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < until && parent.isAlive()) {
            Optional<ProcessHandle> child = parent.children()
                    .filter(c -> c.info()
                            .commandLine()
                            .map(l -> l.contains(LocalJob.class.getName()))
                            .orElse(false))
                    .findFirst();
            if (child.isPresent()) {
                return child.get();
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the command started no job JVM (alive: " + parent.isAlive() + ")");
    }
}
