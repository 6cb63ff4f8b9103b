package dev.outlierlab.release;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Runs programs for the release tests: each with its own environment, output and error apart, a time limit. */
final class Shell {
    /** What a program did: its exit status, its standard output and its standard error. */
    record Result(int exit, String out, String err) {
        String describe() {
            return "exit " + exit + "\n--- stdout:\n" + out + "\n--- stderr:\n" + err;
        }
    }

    private Shell() {}

    /**
     * Runs {@code command} in {@code dir}. {@code env} replaces the environment when {@code clean}, else adds to it
     * (a {@code null} value removes a variable).
     */
    static Result run(List<String> command, Path dir, Map<String, String> env, boolean clean, int seconds)
            throws IOException, InterruptedException {
        Path out = Files.createTempFile("release-out", ".txt");
        Path err = Files.createTempFile("release-err", ".txt");
        try {
            ProcessBuilder builder = new ProcessBuilder(command)
                    .directory(dir.toFile())
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            if (clean) {
                builder.environment().clear();
            }
            env.forEach((key, value) -> {
                if (value == null) {
                    builder.environment().remove(key);
                } else {
                    builder.environment().put(key, value);
                }
            });
            Process process = builder.start();
            if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
                return new Result(
                        -1,
                        Files.readString(out),
                        Files.readString(err) + "\n(timed out after " + seconds + " s: " + String.join(" ", command)
                                + ")");
            }
            return new Result(
                    process.exitValue(),
                    Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** Whether {@code program} is on this machine's PATH (or in /usr/sbin, where dpkg's tools may be). */
    static boolean onPath(String program) {
        String path = System.getenv().getOrDefault("PATH", "") + File.pathSeparator + "/usr/sbin:/sbin";
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }

    /** Where {@code program} is on this machine's PATH. */
    static Path which(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, program);
            if (!dir.isEmpty() && Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException(program + " is not on the PATH");
    }

    /**
     * A folder for a PATH that holds only the named programs (links to this machine's), so that a command run with
     * it finds no {@code java}: what a machine without Java has.
     */
    static Path pathWithout(Path parent, String... programs) throws IOException {
        Path tools = Files.createDirectories(parent.resolve("tools"));
        for (String program : programs) {
            Files.createSymbolicLink(tools.resolve(program), which(program).toRealPath());
        }
        return tools;
    }

    static void delete(Path folder) throws IOException {
        if (folder == null || !Files.exists(folder)) {
            return;
        }
        try (Stream<Path> all = Files.walk(folder)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
