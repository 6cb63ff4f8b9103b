package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code check DIR} reads the regular files of a directory; a FIFO, a symbolic link to a directory and a link to nothing
 * inside it are skipped, and each is named on standard error with why, one line each, while the report and the exit
 * code are those of the files it read. The FIFO is made with {@code mkfifo} (skipped where there is none).
 */
class CheckDirectorySkipsTest {
    @TempDir
    Path tmp;

    @Test
    void aFifoAndLinksInADirectoryAreNamedOnStandardErrorAndTheReportIsTheSame() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("configs"));
        Files.copy(Path.of("../docs/examples/search-cluster.yaml"), dir.resolve("search-cluster.yaml"));
        CliRunner.Outcome plain = CliRunner.run("check", dir.toString());

        Path elsewhere = Files.createDirectory(tmp.resolve("elsewhere"));
        Files.copy(Path.of("../docs/examples/search-cluster-cap34.yaml"), elsewhere.resolve("cap34.yaml"));
        NamedPipeInputTest.mkfifo(dir.resolve("fifo"));
        NamedPipeInputTest.mkfifo(dir.resolve("pipe.yaml"));
        Files.createSymbolicLink(dir.resolve("linked"), elsewhere);
        Files.createSymbolicLink(dir.resolve("gone.yaml"), tmp.resolve("missing.yaml"));
        CliRunner.Outcome withOthers = CliRunner.run("check", dir.toString());

        assertThat(withOthers.exit()).isEqualTo(plain.exit()).isZero();
        assertThat(withOthers.out()).isEqualTo(plain.out());
        assertThat(plain.err()).doesNotContain("skipped");
        assertThat(withOthers.err())
                .isEqualTo("outlier-lab: skipped " + dir.resolve("fifo") + ": not a regular file\n"
                        + "outlier-lab: skipped " + dir.resolve("gone.yaml") + ": a symbolic link to nothing\n"
                        + "outlier-lab: skipped " + dir.resolve("linked")
                        + ": a symbolic link to a directory (not followed)\n"
                        + "outlier-lab: skipped " + dir.resolve("pipe.yaml") + ": not a regular file\n");
    }

    @Test
    void aDirectoryNamedThroughASymbolicLinkIsCheckedAsTheDirectory() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("real"));
        Files.copy(Path.of("../docs/examples/search-cluster.yaml"), dir.resolve("search-cluster.yaml"));
        Path link = Files.createSymbolicLink(tmp.resolve("link"), dir);
        CliRunner.Outcome viaLink = CliRunner.run("check", link.toString());
        CliRunner.Outcome direct = CliRunner.run("check", dir.toString());
        // it was "no configuration file in this directory (it is empty)", exit 2
        assertThat(viaLink.exit()).as(viaLink.err()).isEqualTo(direct.exit()).isZero();
        assertThat(viaLink.out())
                .contains(link.resolve("search-cluster.yaml").toString())
                .isEqualTo(direct.out().replace(dir.toString(), link.toString()));
    }

    @Test
    void aDirectoryOfOnlyAFifoIsBadInputThatNamesIt() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("pipes"));
        NamedPipeInputTest.mkfifo(dir.resolve("fifo"));
        CliRunner.Outcome run = CliRunner.run("check", dir.toString());
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err())
                .isEqualTo("outlier-lab: " + dir + ": no configuration file in this directory (it holds no regular"
                        + " file: " + dir.resolve("fifo") + ": not a regular file); check reads "
                        + CheckFiles.READS_IN_DIRECTORY + "\n");
    }

    @Test
    void aSymbolicLinkLoopIsOneMessageThatSaysItsPathOnce() throws Exception {
        Path a = tmp.resolve("a");
        Files.createSymbolicLink(a, tmp.resolve("b"));
        Files.createSymbolicLink(tmp.resolve("b"), a);
        CliRunner.Outcome loop = CliRunner.run("check", a.toString());
        assertThat(loop.exit()).isEqualTo(2);
        assertThat(loop.out()).isEmpty();
        assertThat(loop.err())
                .startsWith("outlier-lab: " + a + ": cannot be read (")
                .endsWith(")\n");
        assertThat(loop.err().split(java.util.regex.Pattern.quote(a.toString()), -1))
                .hasSize(2);
    }
}
