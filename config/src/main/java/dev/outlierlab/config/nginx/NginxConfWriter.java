package dev.outlierlab.config.nginx;

import dev.outlierlab.engine.nginx.NextUpstream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes tuned values back into the files an upstream was read from, changing only the tuned directives: each
 * server line's {@code max_fails=} and {@code fail_timeout=} (other parameters kept in place), the
 * {@code proxy_next_upstream} in effect where the upstream is used (replaced, or added at the top of that
 * location), and a {@code zone} added to the upstream when asked. Everything else, comments and layout included,
 * is left as it was.
 */
public final class NginxConfWriter {
    /** The values to write; null leaves a directive as it is. */
    public record Tuning(Integer maxFails, Long failTimeoutSeconds, NextUpstream nextUpstream, boolean addZone) {}

    private record Edit(int start, int end, String text) {}

    private NginxConfWriter() {}

    /** The new text of each file that changes, by path (files with no change are left out). */
    public static Map<Path, String> write(NginxSettings settings, Tuning tuning) {
        Map<Path, List<Edit>> edits = new LinkedHashMap<>();
        for (ConfDirective server : settings.serverLines()) {
            List<String> args = new ArrayList<>(server.args());
            if (tuning.maxFails() != null) {
                put(args, "max_fails=", Integer.toString(tuning.maxFails()));
            }
            if (tuning.failTimeoutSeconds() != null) {
                put(args, "fail_timeout=", tuning.failTimeoutSeconds() + "s");
            }
            if (!args.equals(server.args())) {
                add(
                        edits,
                        server.file(),
                        new Edit(server.start(), server.end(), "server " + String.join(" ", args) + ";"));
            }
        }
        if (tuning.nextUpstream() != null) {
            String text = "proxy_next_upstream "
                    + String.join(" ", tuning.nextUpstream().words()) + ";";
            ConfDirective next = settings.nextUpstream();
            ConfDirective location = settings.location();
            if (next != null
                    && location != null
                    && next.file().equals(location.file())
                    && next.start() > location.start()) {
                add(edits, next.file(), new Edit(next.start(), next.end(), text));
            } else if (location != null) {
                add(
                        edits,
                        location.file(),
                        new Edit(location.end(), location.end(), "\n" + indent(settings, location) + text));
            } else if (next != null) {
                add(edits, next.file(), new Edit(next.start(), next.end(), text));
            }
        }
        if (tuning.addZone() && !settings.config().zone()) {
            ConfDirective up = settings.upstream();
            add(
                    edits,
                    up.file(),
                    new Edit(
                            up.end(),
                            up.end(),
                            "\n" + indent(settings, up) + "zone "
                                    + settings.config().name() + " 64k;"));
        }
        Map<Path, String> out = new LinkedHashMap<>();
        for (Map.Entry<Path, List<Edit>> e : edits.entrySet()) {
            StringBuilder text = new StringBuilder(settings.texts().get(e.getKey()));
            List<Edit> list = new ArrayList<>(e.getValue());
            list.sort(Comparator.comparingInt(Edit::start).reversed());
            for (Edit edit : list) {
                text.replace(edit.start(), edit.end(), edit.text());
            }
            out.put(e.getKey(), text.toString());
        }
        return out;
    }

    private static void put(List<String> args, String prefix, String value) {
        for (int i = 1; i < args.size(); i++) {
            if (args.get(i).startsWith(prefix)) {
                args.set(i, prefix + value);
                return;
            }
        }
        args.add(prefix + value);
    }

    private static void add(Map<Path, List<Edit>> edits, Path file, Edit edit) {
        edits.computeIfAbsent(file, k -> new ArrayList<>()).add(edit);
    }

    /** The indentation of the block's first inner line, or the block's own plus four spaces. */
    private static String indent(NginxSettings settings, ConfDirective block) {
        String text = settings.texts().get(block.file());
        int lineStart = text.lastIndexOf('\n', block.start()) + 1;
        int i = lineStart;
        while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
            i++;
        }
        return text.substring(lineStart, i) + "    ";
    }
}
