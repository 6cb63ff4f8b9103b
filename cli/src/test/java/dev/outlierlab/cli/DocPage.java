package dev.outlierlab.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A Markdown page's documented commands: its {@code console} blocks, each a list of commands with the output the
 * page shows for them.
 *
 * <p>Syntax of a console block: a line starting with {@code $ } is a command (a line ending in a backslash goes
 * on with the next); the lines after it, up to the next command, are its expected output. In expected output a
 * line that is exactly {@code ...} matches any number of lines, {@code …} or {@code ...} inside a line matches any
 * text, and a
 * last line {@code [exit status N]} says the command exits with N (otherwise it must exit 0). A command ending in
 * {@code &} starts in the background (a server), and the next command waits until the port named by its
 * {@code --port N} accepts connections; background commands end with their block. A command with no output
 * lines is checked for its exit status only.
 */
record DocPage(String name, List<Block> blocks, List<String> misplacedCommands, List<ShellBlock> shellBlocks) {
    private static final Pattern FENCE = Pattern.compile("^\\s*```+\\s*([A-Za-z0-9_-]*).*$");
    private static final Pattern BARE_COMMAND = Pattern.compile("^\\s*\\$\\s+(\\./)?outlier-lab\\b.*");
    private static final List<String> SHELL_TAGS = List.of("sh", "bash", "shell");
    /** The outlier-lab command as a word of a shell line: {@code outlier-lab}, {@code ./outlier-lab}, {@code bin/outlier-lab}. */
    private static final Pattern OUTLIER_LAB =
            Pattern.compile("(?:^|[\\s;|&(])(?:\\$\\s+)?(?:[^\\s;|&(]*/)?outlier-lab(?=\\s|$|[;|&)])");

    /** One console block: where it starts and its commands in order. */
    record Block(int line, List<Command> commands) {
        String summary() {
            String first = commands.isEmpty() ? "(empty)" : commands.get(0).text();
            String more = commands.size() > 1 ? " (+" + (commands.size() - 1) + " more)" : "";
            return "$ " + (first.length() > 90 ? first.substring(0, 90) + "…" : first) + more;
        }
    }

    /** One command, its expected output lines (empty: not compared) and the exit status it must end with. */
    record Command(int line, String text, List<String> expected, int exitStatus) {
        boolean background() {
            return text.endsWith("&") && !text.endsWith("&&");
        }
    }

    /** A block tagged {@code sh}, {@code bash} or {@code shell}, which the doc-test shows but does not run. */
    record ShellBlock(int line, List<String> lines) {
        /** The page's line numbers of its lines that run the outlier-lab command (a {@code #} comment aside). */
        List<Integer> outlierLabLines() {
            List<Integer> found = new ArrayList<>();
            for (int i = 0; i < lines.size(); i++) {
                String code = lines.get(i).replaceFirst("(^|\\s)#.*$", "");
                if (OUTLIER_LAB.matcher(code).find()) {
                    found.add(line + 1 + i);
                }
            }
            return found;
        }

        boolean contains(String text) {
            return lines.stream().anyMatch(l -> l.contains(text));
        }
    }

    /** README.md and every Markdown page under docs/, in a stable order. */
    static List<Path> pages(Path repo) throws IOException {
        List<Path> pages = new ArrayList<>();
        if (Files.exists(repo.resolve("README.md"))) {
            pages.add(repo.resolve("README.md"));
        }
        try (Stream<Path> docs = Files.walk(repo.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    static DocPage read(Path repo, Path page) throws IOException {
        List<String> lines = Files.readAllLines(page);
        String name = repo.relativize(page).toString();
        List<Block> blocks = new ArrayList<>();
        List<String> misplaced = new ArrayList<>();
        List<ShellBlock> shellBlocks = new ArrayList<>();
        List<String> shellLines = null;
        String fenceTag = null;
        int blockStart = 0;
        List<Command> commands = null;
        int commandLine = 0;
        StringBuilder command = null;
        List<String> expected = null;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            var fence = FENCE.matcher(line);
            if (fence.matches()) {
                if (fenceTag == null) {
                    fenceTag = fence.group(1);
                    blockStart = i + 1;
                    commands = "console".equals(fenceTag) ? new ArrayList<>() : null;
                    shellLines = SHELL_TAGS.contains(fenceTag) ? new ArrayList<>() : null;
                    continue;
                }
                if (shellLines != null) {
                    shellBlocks.add(new ShellBlock(blockStart, List.copyOf(shellLines)));
                }
                if (commands != null) {
                    if (command != null) {
                        commands.add(command(commandLine, command.toString(), expected));
                    }
                    blocks.add(new Block(blockStart, List.copyOf(commands)));
                }
                fenceTag = null;
                commands = null;
                shellLines = null;
                command = null;
                continue;
            }
            if (fenceTag == null) {
                continue;
            }
            if (shellLines != null) {
                shellLines.add(line);
            }
            if (commands == null) {
                if (BARE_COMMAND.matcher(line).matches()) {
                    misplaced.add(name + ":" + (i + 1) + ": " + line.strip());
                }
                continue;
            }
            if (line.startsWith("$ ")) {
                if (command != null) {
                    commands.add(command(commandLine, command.toString(), expected));
                }
                commandLine = i + 1;
                command = new StringBuilder(line.substring(2));
                while (command.toString().endsWith("\\") && i + 1 < lines.size()) {
                    String joined = command.substring(0, command.length() - 1).stripTrailing();
                    command.setLength(0);
                    command.append(joined).append(' ').append(lines.get(++i).strip());
                }
                expected = new ArrayList<>();
            } else if (command != null) {
                expected.add(line);
            } else if (!line.isBlank()) {
                misplaced.add(name + ":" + (i + 1) + ": output with no '$ ' command before it in a console block");
            }
        }
        return new DocPage(name, List.copyOf(blocks), List.copyOf(misplaced), List.copyOf(shellBlocks));
    }

    private static Command command(int line, String text, List<String> expected) {
        List<String> lines = new ArrayList<>(expected);
        while (!lines.isEmpty() && lines.get(lines.size() - 1).isBlank()) {
            lines.remove(lines.size() - 1);
        }
        int exit = 0;
        if (!lines.isEmpty()) {
            var status = Pattern.compile("^\\[exit status (\\d+)]$")
                    .matcher(lines.get(lines.size() - 1).strip());
            if (status.matches()) {
                exit = Integer.parseInt(status.group(1));
                lines.remove(lines.size() - 1);
            }
        }
        return new Command(line, text.strip(), List.copyOf(lines), exit);
    }

    /** Whether the actual output lines match the expected ones, with {@code ...} lines and {@code …} wildcards. */
    static boolean matches(List<String> expected, List<String> actual) {
        return matchFrom(expected, 0, actual, 0);
    }

    private static boolean matchFrom(List<String> expected, int e, List<String> actual, int a) {
        while (e < expected.size()) {
            String want = expected.get(e);
            if (want.strip().equals("...")) {
                if (e + 1 == expected.size()) {
                    return true;
                }
                for (int skip = a; skip <= actual.size(); skip++) {
                    if (matchFrom(expected, e + 1, actual, skip)) {
                        return true;
                    }
                }
                return false;
            }
            if (a >= actual.size() || !lineMatches(want, actual.get(a))) {
                return false;
            }
            e++;
            a++;
        }
        return a == actual.size();
    }

    static boolean lineMatches(String expected, String actual) {
        String want = expected.stripTrailing();
        String got = actual.stripTrailing();
        if (!want.contains("…") && !want.contains("...")) {
            return want.equals(got);
        }
        StringBuilder regex = new StringBuilder();
        for (String part : want.split("…|\\.\\.\\.", -1)) {
            if (regex.length() > 0) {
                regex.append(".*");
            }
            regex.append(Pattern.quote(part));
        }
        return Pattern.compile(regex.toString(), Pattern.DOTALL).matcher(got).matches();
    }
}
