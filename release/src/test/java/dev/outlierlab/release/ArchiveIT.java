package dev.outlierlab.release;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The self-contained archive, untarred into a temporary folder and run as on a machine without Java: a PATH with a
 * shell and a few core utilities but no {@code java}, no {@code JAVA_HOME}. What runs is the archive's own runtime
 * ({@code --version} names it), and {@code run} and {@code check} work.
 */
class ArchiveIT {
    private static Path folder;
    private static Path home;
    private static Map<String, String> noJava;

    @BeforeAll
    static void untar() throws IOException, InterruptedException {
        Path archive = ReleaseFiles.archive();
        folder = Files.createTempDirectory("outlier-lab-archive");
        Shell.Result tar = Shell.run(List.of("tar", "-xzf", archive.toString()), folder, Map.of(), false, 120);
        assertThat(tar.exit()).as("tar: %s", tar.describe()).isZero();
        home = folder.resolve("outlier-lab-" + ReleaseFiles.VERSION);
        Path tools = Shell.pathWithout(folder, "bash", "readlink", "mkdir", "mv", "rm");
        noJava = new HashMap<>();
        noJava.put("PATH", tools.toString());
        noJava.put("HOME", Files.createDirectories(folder.resolve("home")).toString());
    }

    @AfterAll
    static void cleanUp() throws IOException {
        Shell.delete(folder);
    }

    private static Shell.Result outlierLab(String... args) throws IOException, InterruptedException {
        List<String> command =
                new ArrayList<>(List.of(home.resolve("bin/outlier-lab").toString()));
        command.addAll(List.of(args));
        return Shell.run(command, ReleaseFiles.REPO, noJava, true, 300);
    }

    @Test
    void theReleaseFilesAreThereWithTheirChecksums() throws IOException, InterruptedException {
        Path dist = ReleaseFiles.dist();
        String v = ReleaseFiles.VERSION;
        assertThat(dist.resolve("outlier-lab-" + v + ".jar")).hasSameBinaryContentAs(ReleaseFiles.jar());
        List<String> expected =
                new ArrayList<>(List.of("outlier-lab-" + v + "-linux-x64.tar.gz", "outlier-lab-" + v + ".jar"));
        if (ReleaseFiles.canMakeDeb()) {
            expected.add("outlier-lab_" + v + "_amd64.deb");
        }
        List<String> sums = Files.readAllLines(dist.resolve("SHA256SUMS"));
        assertThat(sums).extracting(line -> line.substring(66)).containsExactlyElementsOf(expected);
        Shell.Result check =
                Shell.run(List.of("sha256sum", "--check", "--strict", "SHA256SUMS"), dist, Map.of(), false, 120);
        assertThat(check.exit()).as(check.describe()).isZero();
        assertThat(check.out().lines().filter(line -> line.endsWith(": OK"))).hasSize(expected.size());
    }

    @Test
    void theArchiveRunsWithItsOwnRuntimeAndNoJavaOnThePath() throws IOException, InterruptedException {
        Shell.Result which = Shell.run(List.of("bash", "-c", "command -v java"), folder, noJava, true, 30);
        assertThat(which.exit())
                .as("java must not be on the test's PATH: %s", which.out())
                .isNotZero();

        Shell.Result version = outlierLab("--version");
        assertThat(version.exit()).as(version.describe()).isZero();
        assertThat(version.out())
                .startsWith("outlier-lab " + ReleaseFiles.VERSION + " (commit ")
                .contains(") in " + home.resolve("runtime").toRealPath());
        // the first use makes the class-data archive of the jar, in lib/ (writable here), stamped with its path
        assertThat(version.err()).contains("making a class-data archive");
        assertThat(home.resolve("lib/outlier-lab.jsa")).isNotEmptyFile();
        assertThat(home.resolve("lib/outlier-lab.jsa.stamp"))
                .hasContent(home.resolve("lib/outlier-lab.jar").toRealPath().toString());

        Shell.Result run = outlierLab("run");
        assertThat(run.exit()).as(run.describe()).isZero();
        assertThat(run.out())
                .startsWith("outlier-lab run: bookstore-search (300 s, seed 1)")
                .contains("max_ejection_percent 10 admits no host of 6");
        assertThat(run.err()).as("no JVM warning, no archive made again").isEmpty();

        Shell.Result check = outlierLab("check", "docs/examples/search-cluster.yaml", "--format", "sarif");
        assertThat(check.exit()).as(check.describe()).isZero();
        assertThat(check.out()).contains("\"ruleId\" : \"cap-admits-no-host\"", "\"startLine\" : 22");
        assertThat(check.err()).isEmpty();

        Shell.Result bad = outlierLab("check", "no-such-file.yaml");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).contains("no-such-file.yaml").doesNotContain("Exception");
    }

    @Test
    void theRuntimeHoldsOnlyTheModulesTheJarNeeds() throws IOException, InterruptedException {
        Shell.Result modules = Shell.run(
                List.of(home.resolve("runtime/bin/java").toString(), "--list-modules"), folder, noJava, true, 60);
        assertThat(modules.exit()).as(modules.describe()).isZero();
        assertThat(modules.out().lines().map(line -> line.replaceAll("@.*", "")))
                .contains("java.base", "java.net.http", "jdk.httpserver", "jdk.unsupported")
                .doesNotContain("jdk.compiler", "jdk.jshell", "java.xml.crypto", "jdk.jlink");
        assertThat(home.resolve("runtime/bin/javac")).doesNotExist();
        assertThat(home.resolve("runtime/lib/server/classes.jsa"))
                .as("the runtime's own class-data archive")
                .isNotEmptyFile();
        assertThat(home.resolve("share/man/man1/outlier-lab.1.gz")).isNotEmptyFile();
        assertThat(home.resolve("share/bash-completion/completions/outlier-lab"))
                .content()
                .contains("complete -F _complete_outlier-lab");
    }
}
