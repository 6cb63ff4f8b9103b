package dev.outlierlab.flink;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The fenced blocks of docs/flink.md: its {@code sh} blocks, each with the installation it runs on named after the
 * language ({@code ```sh flink-alone}, {@code ```sh flink-lib}, {@code ```sh flink-local}; none for a block that
 * cannot run here, such as YARN's or Kubernetes'), and its {@code yaml} blocks of settings. A command is a line, with
 * the lines after it while the line ends with a backslash.
 */
record FlinkPage(List<FlinkPage.Block> blocks, List<Map<String, String>> settings) {
    private static final Pattern FENCE = Pattern.compile("^```+\\s*([A-Za-z0-9_-]*)\\s*([A-Za-z0-9_-]*).*$");

    /** An {@code sh} block: where it starts, its installation (empty: not run here), its text and commands. */
    record Block(int line, String installation, String text, List<String> commands) {}

    static FlinkPage read(Path page) throws IOException {
        List<String> lines = Files.readAllLines(page);
        List<Block> blocks = new ArrayList<>();
        List<Map<String, String>> settings = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher fence = FENCE.matcher(lines.get(i));
            if (!fence.matches() || fence.group(1).isEmpty()) {
                continue;
            }
            int start = i + 1;
            List<String> body = new ArrayList<>();
            for (i++; i < lines.size() && !lines.get(i).startsWith("```"); i++) {
                body.add(lines.get(i));
            }
            if (fence.group(1).equals("sh")) {
                blocks.add(new Block(start, fence.group(2), String.join("\n", body), commands(body)));
            } else if (fence.group(1).equals("yaml")) {
                Map<String, String> s = new LinkedHashMap<>();
                for (String l : body) {
                    int colon = l.indexOf(": ");
                    if (colon > 0 && !l.startsWith(" ") && !l.startsWith("#")) {
                        s.put(l.substring(0, colon), l.substring(colon + 2).strip());
                    }
                }
                settings.add(s);
            }
        }
        return new FlinkPage(List.copyOf(blocks), List.copyOf(settings));
    }

    /** The blocks that run on {@code installation}, in the page's order. */
    List<Block> on(String installation) {
        return blocks.stream()
                .filter(b -> b.installation().equals(installation))
                .toList();
    }

    /** The settings of the first {@code yaml} block that sets {@code key}. */
    Map<String, String> settingsWith(String key) {
        return settings.stream()
                .filter(s -> s.containsKey(key))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no yaml block of docs/flink.md sets " + key));
    }

    private static List<String> commands(List<String> body) {
        List<String> out = new ArrayList<>();
        StringBuilder command = null;
        for (String l : body) {
            if (command == null) {
                if (l.isBlank()) {
                    continue;
                }
                command = new StringBuilder(l);
            } else {
                command.append('\n').append(l);
            }
            if (!l.endsWith("\\")) {
                out.add(command.toString());
                command = null;
            }
        }
        if (command != null) {
            out.add(command.toString());
        }
        return out;
    }
}
