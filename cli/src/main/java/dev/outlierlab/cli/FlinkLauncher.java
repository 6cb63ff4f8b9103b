package dev.outlierlab.cli;

import dev.outlierlab.config.InputException;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.Reader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code --engine flink}: runs the same command in a JVM of its own on the class path of the flink module's job
 * jar and the Flink libraries beside it ({@code flink/target/outlier-lab-flink.jar} and {@code flink-lib/}, or
 * the directory {@code OUTLIER_LAB_FLINK_DIR} names), where Flink's local MiniCluster runs the job. The command
 * itself never loads a Flink class, so its jar, its class-data archive and its start stay as they are; the
 * child's output and exit status are the command's. {@code OUTLIER_LAB_FLINK_JAVA_OPTS} adds JVM options.
 *
 * <p>The child never outlives the command: a shutdown hook ends it when this JVM ends for any reason it can see
 * (normal end, Ctrl-C, SIGTERM: a CI job's timeout), first asking (SIGTERM) and after {@value #GRACE_SECONDS} s
 * forcibly; and the child ends itself when it sees this JVM gone (a SIGKILL, which runs no hook).
 */
final class FlinkLauncher {
    static final String MAIN = "dev.outlierlab.flink.LocalJob";
    /** How long the child may take to end when asked, before it is killed. */
    static final int GRACE_SECONDS = 5;

    private FlinkLauncher() {}

    /** Runs {@code spec}'s command, with the arguments it was given, in the flink module's JVM. */
    static int run(CommandSpec spec) {
        Path dir = jobDirectory();
        Path jar = dir.resolve("outlier-lab-flink.jar");
        Path lib = dir.resolve("flink-lib");
        if (!Files.isRegularFile(jar) || !Files.isDirectory(lib)) {
            throw new InputException(
                    "--engine flink: the Flink job jar " + jar + " is not built; build it with "
                            + "'mvn -B -q -pl flink -am package -DskipTests' (./outlier-lab does when --engine flink is given)");
        }
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xlog:disable");
        // the class-data archive's notes (classes it skips while it is written) are not the command's
        command.add("-Xlog:all=warning,cds*=off:stderr");
        // C2 only for what is really hot (the readers' and the engine's loops): a job's fixed cost is mostly the
        // MiniCluster's start, whose warm methods C2 would otherwise compile; 3 M lines cost 30 % less CPU with
        // the same report (bench/flink-benchmark.sh). OUTLIER_LAB_FLINK_JAVA_OPTS comes after, and wins.
        command.addAll(List.of(
                "-XX:Tier4InvocationThreshold=100000",
                "-XX:Tier4MinInvocationThreshold=50000",
                "-XX:Tier4CompileThreshold=120000",
                "-XX:Tier4BackEdgeThreshold=400000"));
        String opts = System.getenv("OUTLIER_LAB_FLINK_JAVA_OPTS");
        if (opts != null && !opts.isBlank()) {
            command.addAll(List.of(opts.trim().split("\\s+")));
        }
        Path archive = classData(command, jar);
        command.add("-cp");
        command.add(jar + File.pathSeparator + lib.resolve("*"));
        command.add(MAIN);
        // the command line as given ("replay ..."), which the job's entry point parses as the command does
        command.addAll(spec.root().commandLine().getParseResult().originalArgs());
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Process child;
        try {
            child = new ProcessBuilder(command)
                    .redirectInput(ProcessBuilder.Redirect.INHERIT)
                    .start();
        } catch (IOException e) {
            throw new InputException("--engine flink: cannot start " + command.get(0) + " (" + e.getMessage() + ")");
        }
        Thread stopping = new Thread(() -> stop(child), "flink-job-stop");
        Runtime.getRuntime().addShutdownHook(stopping);
        try {
            Thread errors = copying(child.getErrorStream(), err);
            Thread output = copying(child.getInputStream(), out);
            int status = child.waitFor();
            output.join();
            errors.join();
            keepClassData(archive, status);
            return status;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InputException("--engine flink: interrupted while the job ran");
        } finally {
            stop(child);
            try {
                Runtime.getRuntime().removeShutdownHook(stopping);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or about to: it stops the child
            }
        }
    }

    /**
     * A class-data archive of the job's JVM ({@code outlier-lab-flink.jsa} beside the job jar, JDK 17's dynamic
     * AppCDS): Flink's MiniCluster loads some ten thousand classes, which the JVM then maps instead of reading
     * and verifying them, about a third of the job's fixed CPU cost (bench/flink-benchmark.sh). Used when it is
     * newer than the jar; otherwise this run writes one (to a temporary name, kept only if the job succeeded),
     * where the directory is writable.
     *
     * @return the archive this run writes, or null
     */
    private static Path classData(List<String> command, Path jar) {
        Path archive = jar.resolveSibling("outlier-lab-flink.jsa");
        try {
            if (Files.isRegularFile(archive)
                    && Files.getLastModifiedTime(archive).compareTo(Files.getLastModifiedTime(jar)) > 0) {
                command.add("-XX:SharedArchiveFile=" + archive);
                return null;
            }
            if (!Files.isWritable(jar.getParent())) {
                return null;
            }
        } catch (IOException e) {
            return null;
        }
        Path writing = jar.resolveSibling(
                "outlier-lab-flink.jsa." + ProcessHandle.current().pid());
        command.add("-XX:ArchiveClassesAtExit=" + writing);
        return writing;
    }

    private static void keepClassData(Path writing, int status) {
        if (writing == null) {
            return;
        }
        try {
            if (status == 0 && Files.isRegularFile(writing) && Files.size(writing) > 0) {
                Files.move(
                        writing,
                        writing.resolveSibling("outlier-lab-flink.jsa"),
                        StandardCopyOption.REPLACE_EXISTING,
                        StandardCopyOption.ATOMIC_MOVE);
            } else {
                Files.deleteIfExists(writing);
            }
        } catch (IOException e) {
            // no archive: the next run tries again
        }
    }

    /** Ends the child JVM if it still runs: asked first, then killed after {@value #GRACE_SECONDS} s. */
    static void stop(Process child) {
        if (!child.isAlive()) {
            return;
        }
        child.destroy();
        try {
            if (child.waitFor(GRACE_SECONDS, TimeUnit.SECONDS)) {
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        child.destroyForcibly();
    }

    /** Where the job jar is: {@code OUTLIER_LAB_FLINK_DIR}, else {@code flink/target} of this checkout. */
    static Path jobDirectory() {
        String given = System.getenv("OUTLIER_LAB_FLINK_DIR");
        if (given != null && !given.isBlank()) {
            return Path.of(given);
        }
        try {
            // cli/target/outlier-lab.jar or cli/target/classes: three levels up is the checkout
            Path here = Path.of(FlinkLauncher.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
            return here.getParent().getParent().getParent().resolve("flink").resolve("target");
        } catch (URISyntaxException | NullPointerException e) {
            return Path.of("flink", "target");
        }
    }

    private static Thread copying(InputStream from, PrintWriter to) {
        Thread t = new Thread(
                () -> {
                    try (Reader r = new InputStreamReader(from, StandardCharsets.UTF_8)) {
                        char[] buffer = new char[8192];
                        for (int n = r.read(buffer); n >= 0; n = r.read(buffer)) {
                            to.write(buffer, 0, n);
                        }
                        to.flush();
                    } catch (IOException e) {
                        to.flush();
                    }
                },
                "flink-job-output");
        t.setDaemon(true);
        t.start();
        return t;
    }
}
