package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Output files and signals, with a real child process: {@code run --access-log} writing a large log is sent
 * SIGTERM with {@code kill -TERM}, and neither the log nor its temporary file is left; a temporary file of a
 * process that no longer runs is removed at the next write; outputs are created with the umask's mode, a
 * replaced file keeps its mode, a read-only file is refused with exit 2, and a link is followed.
 */
class PartialOutputSignalTest {
    @TempDir
    Path dir;

    @Test
    void sigtermWhileWritingLeavesNoPartialFile() throws Exception {
        Path log = dir.resolve("access.jsonl");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(
                java,
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                "run",
                "--set",
                "traffic.rps=20000",
                "--set",
                "duration=20000s",
                "--yes",
                "--access-log",
                log.toString()));
        Process p = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < deadline && temps().stream().noneMatch(PartialOutputSignalTest::grown)) {
                assertThat(p.isAlive()).as("still writing").isTrue();
                Thread.sleep(50);
            }
            assertThat(temps()).as("a temporary file is being written").hasSize(1);
            Process kill = new ProcessBuilder("kill", "-TERM", Long.toString(p.pid()))
                    .inheritIO()
                    .start();
            assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("ended on SIGTERM").isTrue();
        } finally {
            p.destroyForcibly();
        }
        assertThat(temps()).as("no partial file after SIGTERM").isEmpty();
        assertThat(log).doesNotExist();
    }

    @Test
    void aStaleTemporaryFileOfADeadProcessIsRemovedAndModesAreKept() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Path stale = Files.writeString(dir.resolve(".outlier-lab-" + gone.pid() + "-1.tmp"), "partial");
        Path mine = Files.writeString(
                dir.resolve(".outlier-lab-" + ProcessHandle.current().pid() + "-999.tmp"), "x");
        Path probe = Files.createFile(dir.resolve("probe"));
        Set<PosixFilePermission> umaskMode = Files.getPosixFilePermissions(probe);

        Path series = dir.resolve("series.csv");
        CliRunner.Outcome r = CliRunner.run("run", "--series", series.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(stale).as("left by a process that no longer runs").doesNotExist();
        assertThat(mine).as("a live process's file is not touched").exists();
        assertThat(Files.getPosixFilePermissions(series))
                .as("the umask's mode, not 0600")
                .isEqualTo(umaskMode);

        Files.setPosixFilePermissions(series, PosixFilePermissions.fromString("rw-r-----"));
        assertThat(CliRunner.run("run", "--series", series.toString()).exit()).isZero();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(series)))
                .isEqualTo("rw-r-----");

        Path link = Files.createSymbolicLink(dir.resolve("link.csv"), series);
        Files.writeString(series, "old");
        assertThat(CliRunner.run("run", "--series", link.toString()).exit()).isZero();
        assertThat(Files.isSymbolicLink(link)).as("the link is kept").isTrue();
        assertThat(Files.readString(series))
                .as("the file it points to is replaced")
                .startsWith("time");

        Files.setPosixFilePermissions(series, PosixFilePermissions.fromString("r--r--r--"));
        CliRunner.Outcome readOnly = CliRunner.run("run", "--series", series.toString());
        assertThat(readOnly.exit()).isEqualTo(2);
        assertThat(readOnly.err()).contains("--series " + series + ": the file is read-only; it is not replaced");
    }

    private List<Path> temps() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().startsWith(".outlier-lab-"))
                    .toList();
        }
    }

    private static boolean grown(Path f) {
        try {
            return Files.size(f) > 1 << 20;
        } catch (IOException gone) {
            return false;
        }
    }
}
