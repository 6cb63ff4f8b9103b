package dev.outlierlab.release;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The Debian package, installed with dpkg into a scratch root with its maintainer scripts (dpkg {@code --root}
 * with {@code --force-script-chrootless}: the scripts run on this machine with {@code DPKG_ROOT} set, as they do
 * for a real install with an empty {@code DPKG_ROOT}), then used with no Java on the PATH, then removed. The
 * package's dependencies (libc6, zlib1g, the X libraries of java.desktop) are not in the scratch root's empty
 * package database, hence {@code --force-depends}; apt resolves them on a real machine.
 */
class DebianPackageIT {
    private Path root;
    private Path pathFolder;

    @AfterEach
    void cleanUp() throws IOException {
        Shell.delete(root);
        Shell.delete(pathFolder);
    }

    private Shell.Result dpkg(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        if (!"0"
                .equals(Shell.run(List.of("id", "-u"), root, Map.of(), false, 10)
                        .out()
                        .strip())) {
            command.add("fakeroot"); // dpkg sets owners; fakeroot lets it without being root
        }
        command.addAll(List.of("dpkg", "--root=" + root, "--force-script-chrootless", "--force-not-root"));
        command.addAll(List.of(args));
        return Shell.run(command, root, Map.of("PATH", System.getenv("PATH") + ":/usr/sbin:/sbin"), false, 300);
    }

    @Test
    void theDebInstallsRunsWithoutJavaOnThePathAndRemovesCleanly() throws IOException, InterruptedException {
        assumeTrue(ReleaseFiles.canMakeDeb(), ReleaseFiles::missingDebTools);
        Path deb = ReleaseFiles.deb();
        assertThat(deb)
                .as("the release build's .deb; its log:%n%s", ReleaseFiles.buildLog())
                .isNotEmptyFile();
        root = Files.createTempDirectory("outlier-lab-deb-root");
        Files.createDirectories(root.resolve("var/lib/dpkg/info"));
        Files.createDirectories(root.resolve("var/lib/dpkg/updates"));
        Files.createFile(root.resolve("var/lib/dpkg/status"));

        Shell.Result install = dpkg("--force-depends", "-i", deb.toString());
        assertThat(install.exit()).as("dpkg -i: %s", install.describe()).isZero();
        assertThat(install.out()).contains("Setting up outlier-lab (" + ReleaseFiles.VERSION.replace('-', '~'));

        // on the PATH (/usr/bin): the archive's launcher beside the installed jar; the manual page and bash completion
        // where Debian puts them
        Path command = root.resolve("usr/bin/outlier-lab");
        assertThat(command).isSymbolicLink();
        Path app = root.resolve("opt/outlier-lab/lib/app");
        assertThat(command.toRealPath()).isEqualTo(app.resolve("outlier-lab").toRealPath());
        assertThat(command.toRealPath())
                .content()
                .isEqualTo(Files.readString(ReleaseFiles.REPO.resolve("release/src/archive/outlier-lab")));
        assertThat(root.resolve("usr/share/man/man1/outlier-lab.1.gz").toRealPath())
                .isRegularFile();
        assertThat(root.resolve("usr/share/bash-completion/completions/outlier-lab")
                        .toRealPath())
                .content()
                .contains("complete -F _complete_outlier-lab");
        assertThat(app.resolve("outlier-lab.jsa")).as("made by postinst").isNotEmptyFile();
        assertThat(app.resolve("outlier-lab-tune.jsa")).as("made by postinst").isNotEmptyFile();

        pathFolder = Files.createTempDirectory("outlier-lab-deb-path");
        // a machine without Java: the shell and the coreutils the launcher uses (Debian always has them)
        Path tools = Shell.pathWithout(pathFolder, "bash", "readlink", "mkdir", "mv", "rm");
        Map<String, String> noJava = Map.of("PATH", tools.toString(), "HOME", root.toString());
        Shell.Result version =
                Shell.run(List.of(command.toString(), "--version"), ReleaseFiles.REPO, noJava, true, 120);
        assertThat(version.exit()).as(version.describe()).isZero();
        assertThat(version.out())
                .startsWith("outlier-lab " + ReleaseFiles.VERSION + " (commit ")
                .contains(") in " + root.resolve("opt/outlier-lab/lib/runtime").toRealPath());
        assertThat(version.err())
                .as("no JVM warning: the class-data archive matches the installed jar")
                .isEmpty();

        // tune runs with the first JIT compiler only and its own class-data archive, the other commands with both
        // compilers and the archive of run, as the archive's launcher and ./outlier-lab run them (docs/benchmarks.md)
        Map<String, String> printFlags = Map.of(
                "PATH", tools.toString(), "HOME", root.toString(), "OUTLIER_LAB_JAVA_OPTS", "-XX:+PrintFlagsFinal");
        Shell.Result tuneFlags =
                Shell.run(List.of(command.toString(), "tune", "--help"), ReleaseFiles.REPO, printFlags, true, 120);
        assertThat(tuneFlags.exit()).as(tuneFlags.describe()).isZero();
        assertThat(tuneFlags.out())
                .containsPattern("TieredStopAtLevel\\s+= 1\\s")
                .containsPattern(
                        "SharedArchiveFile\\s+= " + Pattern.quote(app.toRealPath() + "/outlier-lab-tune.jsa") + "\\s")
                .contains("outlier-lab tune");
        assertThat(tuneFlags.err()).as("no JVM warning: tune's archive matches").isEmpty();
        Shell.Result runFlags =
                Shell.run(List.of(command.toString(), "run", "--help"), ReleaseFiles.REPO, printFlags, true, 120);
        assertThat(runFlags.exit()).as(runFlags.describe()).isZero();
        assertThat(runFlags.out())
                .containsPattern("TieredStopAtLevel\\s+= 4\\s")
                .containsPattern(
                        "SharedArchiveFile\\s+= " + Pattern.quote(app.toRealPath() + "/outlier-lab.jsa") + "\\s")
                .contains("outlier-lab run");
        assertThat(runFlags.err()).isEmpty();

        Shell.Result run = Shell.run(
                List.of(command.toString(), "run", "--set", "outlier_detection.max_ejection_percent=34"),
                ReleaseFiles.REPO,
                noJava,
                true,
                300);
        assertThat(run.exit()).as(run.describe()).isZero();
        assertThat(run.out()).contains("in fault      990 of 126,000 requests sent during a fault (0.79 %)");
        assertThat(run.err()).isEmpty();

        Shell.Result check = Shell.run(
                List.of(command.toString(), "check", "docs/examples/search-cluster.yaml"),
                ReleaseFiles.REPO,
                noJava,
                true,
                300);
        assertThat(check.exit()).as(check.describe()).isZero();
        assertThat(check.out()).contains("warning cap-admits-no-host (line 22)");

        Shell.Result remove = dpkg("-r", "outlier-lab");
        assertThat(remove.exit()).as("dpkg -r: %s", remove.describe()).isZero();
        assertThat(remove.err()).doesNotContain("not empty");
        try (Stream<Path> left = Files.walk(root)) {
            assertThat(left.filter(p -> !Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS))
                            .map(p -> root.relativize(p).toString())
                            .filter(p -> !p.startsWith("var/lib/dpkg/")))
                    .as("files left after dpkg -r")
                    .isEmpty();
        }
        assertThat(root.resolve("opt/outlier-lab")).doesNotExist();
    }
}
