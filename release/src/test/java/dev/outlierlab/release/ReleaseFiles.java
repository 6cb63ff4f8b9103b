package dev.outlierlab.release;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The release files, built once for all the release tests by the same script {@code mvn -Prelease package} runs
 * ({@code release/make-release.sh}), from the command's jar into {@code target/release-it/dist}. The only
 * difference from a release: the .deb is compressed with gzip at level 1 instead of xz, to save a minute of CPU.
 */
final class ReleaseFiles {
    static final Path MODULE = Path.of("").toAbsolutePath();
    static final Path REPO = MODULE.getParent();
    static final String VERSION = System.getProperty("release.version", "unknown");
    private static Path dist;
    private static Shell.Result build;

    private ReleaseFiles() {}

    /** Whether this machine can make a .deb: jpackage in the JDK, dpkg-deb and fakeroot on the PATH. */
    static boolean canMakeDeb() {
        return Files.isExecutable(Path.of(System.getProperty("java.home"), "bin", "jpackage"))
                && Shell.onPath("dpkg-deb")
                && Shell.onPath("fakeroot")
                && Shell.onPath("dpkg");
    }

    static String missingDebTools() {
        return "jpackage (JDK 17), dpkg-deb and fakeroot are needed to build and install the .deb "
                + "(apt-get install fakeroot dpkg-dev)";
    }

    static Path jar() {
        return Path.of(System.getProperty(
                "release.cliJar", REPO.resolve("cli/target/outlier-lab.jar").toString()));
    }

    /** The folder of release files, built on first use. */
    static synchronized Path dist() throws IOException, InterruptedException {
        if (dist == null) {
            Path out = MODULE.resolve("target/release-it/dist");
            Shell.delete(out);
            Files.createDirectories(out);
            Path javaHome = Path.of(System.getProperty("java.home"));
            build = Shell.run(
                    List.of(
                            "bash",
                            REPO.resolve("release/make-release.sh").toString(),
                            jar().toString(),
                            VERSION,
                            out.toString()),
                    REPO,
                    Map.of(
                            "JAVA_HOME",
                            javaHome.toString(),
                            "DPKG_DEB_COMPRESSOR_TYPE",
                            "gzip",
                            "DPKG_DEB_COMPRESSOR_LEVEL",
                            "1",
                            "PATH",
                            javaHome.resolve("bin") + ":" + System.getenv("PATH")),
                    false,
                    900);
            assertThat(build.exit())
                    .as("release/make-release.sh: %s", build.describe())
                    .isZero();
            dist = out;
        }
        return dist;
    }

    static Path archive() throws IOException, InterruptedException {
        return dist().resolve("outlier-lab-" + VERSION + "-linux-x64.tar.gz");
    }

    static Path deb() throws IOException, InterruptedException {
        return dist().resolve("outlier-lab_" + VERSION + "_amd64.deb");
    }

    /** What the script said while building (its steps and their times). */
    static String buildLog() {
        return build == null ? "" : build.err();
    }
}
