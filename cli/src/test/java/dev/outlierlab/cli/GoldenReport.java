package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A committed report under docs/ that a test regenerates from the lab and compares byte for byte, so that a
 * change in behaviour shows up as a diff in review. {@code -Dgolden.update=true} rewrites the file instead.
 */
final class GoldenReport {
    private GoldenReport() {}

    /** Asserts that {@code report} (under the repository root) holds exactly {@code generated}. */
    static void assertCommitted(Path report, String generated) throws IOException {
        if (Boolean.getBoolean("golden.update")) {
            Files.writeString(report, generated, StandardCharsets.UTF_8);
        }
        assertThat(report).exists();
        assertThat(Files.readString(report, StandardCharsets.UTF_8))
                .as(
                        "%s is out of date: behaviour changed. Regenerate with -Dgolden.update=true and review the diff",
                        report.getFileName())
                .isEqualTo(generated);
    }
}
