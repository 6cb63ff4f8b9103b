package dev.outlierlab.release;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The checkout's launcher after the checkout moves: its class-data archive records the jar's path, so the copy
 * makes its own instead of handing the JVM one that no longer fits (which printed a JVM warning on every command).
 * The checkout here is the launcher and the built jar, copied with their times, so that nothing is built.
 */
class MovedCheckoutIT {
    private Path folder;

    @AfterEach
    void cleanUp() throws IOException {
        Shell.delete(folder);
    }

    private static Shell.Result version(Path checkout) throws IOException, InterruptedException {
        return Shell.run(
                List.of(checkout.resolve("outlier-lab").toString(), "--version"),
                checkout,
                Map.of("OUTLIER_LAB_JAVA_OPTS", ""),
                false,
                300);
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : all.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    @Test
    void aMovedCheckoutMakesItsOwnClassDataArchiveAndRunsWithoutWarnings() throws IOException, InterruptedException {
        folder = Files.createTempDirectory("outlier-lab-moved");
        Path first = folder.resolve("first");
        Files.createDirectories(first.resolve("cli/target"));
        Files.copy(
                ReleaseFiles.REPO.resolve("outlier-lab"),
                first.resolve("outlier-lab"),
                StandardCopyOption.COPY_ATTRIBUTES);
        Files.copy(ReleaseFiles.jar(), first.resolve("cli/target/outlier-lab.jar"), StandardCopyOption.COPY_ATTRIBUTES);

        Shell.Result made = version(first);
        assertThat(made.exit()).as(made.describe()).isZero();
        assertThat(made.err()).contains("making a class-data archive").doesNotContain("warning");
        assertThat(first.resolve("cli/target/outlier-lab.jsa")).isNotEmptyFile();

        Path moved = folder.resolve("moved");
        copy(first, moved);
        Shell.Result afterMove = version(moved);
        assertThat(afterMove.exit()).as(afterMove.describe()).isZero();
        assertThat(afterMove.err())
                .as("the archive is made again for the jar's new path")
                .contains("making a class-data archive")
                .doesNotContain("warning");
        assertThat(moved.resolve("cli/target/outlier-lab.jsa.java"))
                .content()
                .contains(moved.resolve("cli/target/outlier-lab.jar").toString());

        Shell.Result again = version(moved);
        assertThat(again.exit()).as(again.describe()).isZero();
        assertThat(again.err()).as("the moved checkout's second command").isEmpty();
        assertThat(version(first).err())
                .as("the first checkout's archive is still its own")
                .isEmpty();
    }
}
