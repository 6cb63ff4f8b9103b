package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/** Runs documented commands with bash in a scratch folder and compares what they print with the page. */
final class DocShell {
    private static final Pattern PORT = Pattern.compile("--port[ =](\\d+)");
    private static final int COMMAND_SECONDS = 180;

    record Result(int exitStatus, String output) {}

    private DocShell() {}

    static boolean hasBash() {
        return Files.isExecutable(Path.of("/bin/bash"));
    }

    /** A fresh folder with a link to each top-level entry of the repository but .git and build output. */
    static Path scratchFolder(Path repo) throws IOException {
        Path scratch = Files.createTempDirectory("outlier-lab-doctest");
        try (Stream<Path> entries = Files.list(repo)) {
            for (Path entry : entries.toList()) {
                String name = entry.getFileName().toString();
                if (!name.equals(".git") && !name.equals("target")) {
                    Files.createSymbolicLink(scratch.resolve(name), entry);
                }
            }
        }
        return scratch;
    }

    static void delete(Path folder) throws IOException {
        try (Stream<Path> all = Files.walk(folder)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    static Result run(Path folder, String command, int seconds) throws IOException, InterruptedException {
        Process process = start(folder, command);
        byte[] out = process.getInputStream().readAllBytes();
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            kill(process);
            return new Result(-1, new String(out, StandardCharsets.UTF_8) + "\n(timed out after " + seconds + " s)");
        }
        return new Result(process.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    private static Process start(Path folder, String command) throws IOException {
        ProcessBuilder builder = new ProcessBuilder("/bin/bash", "-o", "pipefail", "-c", command)
                .directory(folder.toFile())
                .redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        builder.environment().put("COLUMNS", "110");
        builder.environment().remove("OUTLIER_LAB_JAVA_OPTS");
        return builder.start();
    }

    private static void kill(Process process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    /**
     * The programs a command line starts: the first word of each simple command, split at {@code |}, {@code ;} and
     * {@code &} outside quotes, after any {@code NAME=value} assignments.
     */
    static List<String> programs(String command) {
        List<String> programs = new ArrayList<>();
        StringBuilder segment = new StringBuilder();
        char quote = 0;
        for (int i = 0; i <= command.length(); i++) {
            char c = i < command.length() ? command.charAt(i) : ';';
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                }
                segment.append(c);
            } else if (c == '\'' || c == '"') {
                quote = c;
                segment.append(c);
            } else if (c == '|' || c == ';' || c == '&' || c == '(' || c == ')') {
                for (String word : segment.toString().trim().split("\\s+")) {
                    if (!word.isEmpty() && !word.matches("[A-Za-z_][A-Za-z0-9_]*=.*") && !word.equals("!")) {
                        if (!programs.contains(word)) {
                            programs.add(word);
                        }
                        break;
                    }
                }
                segment.setLength(0);
            } else {
                segment.append(c);
            }
        }
        return programs;
    }

    /** The programs of the block's commands that bash cannot find here (not a builtin, not on PATH). */
    static List<String> missingPrograms(Path folder, DocPage.Block block) throws IOException, InterruptedException {
        List<String> missing = new ArrayList<>();
        for (DocPage.Command command : block.commands()) {
            for (String program : programs(command.text())) {
                if (!missing.contains(program)
                        && !program.contains("'")
                        && !program.contains("\"")
                        && run(folder, "command -v -- '" + program + "' >/dev/null", 10)
                                        .exitStatus()
                                != 0) {
                    missing.add(program);
                }
            }
        }
        return missing;
    }

    /**
     * Runs a block's commands in order and checks each one's exit status and output. A block that needs a program
     * this machine lacks (jq, curl) is skipped, saying which, rather than failed or passed.
     */
    static void runBlock(Path folder, String page, DocPage.Block block) throws IOException, InterruptedException {
        List<String> missing = missingPrograms(folder, block);
        Assumptions.assumeTrue(
                missing.isEmpty(),
                () -> page + ":" + block.line() + ": "
                        + String.join(", ", missing) + (missing.size() == 1 ? " is" : " are")
                        + " not installed, and this block"
                        + " runs " + (missing.size() == 1 ? "it" : "them") + "; install "
                        + String.join(" and ", missing)
                        + " to run it");
        List<Process> background = new ArrayList<>();
        try {
            for (DocPage.Command command : block.commands()) {
                String where = page + ":" + command.line() + ": $ " + command.text();
                if (command.background()) {
                    String text = command.text();
                    Process server = start(
                            folder,
                            text.substring(0, text.length() - 1) + " >"
                                    + folder.resolve("background-" + command.line() + ".log") + " 2>&1");
                    background.add(server);
                    awaitPort(where, text, server);
                    continue;
                }
                Result result = run(folder, command.text(), COMMAND_SECONDS);
                List<String> actual = trimmed(result.output());
                assertThat(result.exitStatus())
                        .as("%s%nexit status (output:%n%s)", where, result.output())
                        .isEqualTo(command.exitStatus());
                if (!command.expected().isEmpty() && !DocPage.matches(command.expected(), actual)) {
                    fail(where + "\nprints something other than the page shows.\n--- the page:\n"
                            + String.join("\n", command.expected()) + "\n--- the command:\n"
                            + String.join("\n", actual));
                }
            }
        } finally {
            background.forEach(DocShell::kill);
        }
    }

    private static void awaitPort(String where, String command, Process server) throws InterruptedException {
        var port = PORT.matcher(command);
        if (!port.find()) {
            fail(where + ": a background command must name its --port so that the next one can wait for it");
        }
        int number = Integer.parseInt(port.group(1));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (!server.isAlive()) {
                fail(where + ": the background command ended with status " + server.exitValue());
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", number), 200);
                return;
            } catch (IOException notYet) {
                Thread.sleep(100);
            }
        }
        fail(where + ": nothing listened on port " + number + " within 60 s");
    }

    private static List<String> trimmed(String output) {
        List<String> lines = new ArrayList<>(List.of(output.split("\n", -1)));
        lines.replaceAll(String::stripTrailing);
        while (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
            lines.remove(lines.size() - 1);
        }
        return lines;
    }
}
