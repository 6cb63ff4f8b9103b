package dev.outlierlab.config.caddy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes tuned subdirectives back into a Caddyfile's first {@code reverse_proxy}: each tuned subdirective
 * ({@code fail_duration}, {@code max_fails}, {@code unhealthy_status}, {@code unhealthy_latency},
 * {@code lb_try_duration}, ...) replaces its line at the block's top level or is added before the block's
 * closing brace; a {@code reverse_proxy} without a block gets one. Every other line is left as it was.
 */
public final class CaddyfileWriter {
    private CaddyfileWriter() {}

    /** The Caddyfile's new text; {@code values} maps a subdirective to its arguments, in the order to add. */
    public static String write(String text, CaddySettings settings, Map<String, String> values) {
        List<String> lines = new ArrayList<>(Arrays.asList(text.split("\n", -1)));
        int at = settings.line() - 1;
        String head = lines.get(at);
        String indent = head.substring(0, head.length() - head.stripLeading().length());
        String inner = indent + (indent.contains("\t") ? "\t" : "    ");
        Map<String, String> left = new LinkedHashMap<>(values);
        int close;
        if (!CaddyConfigReader.words(head).contains("{")) {
            lines.set(at, head.stripTrailing() + " {");
            lines.add(at + 1, indent + "}");
            close = at + 1;
        } else {
            int depth = 1;
            close = -1;
            for (int i = at + 1; i < lines.size() && close < 0; i++) {
                List<String> w = CaddyConfigReader.words(lines.get(i));
                if (w.isEmpty()) {
                    continue;
                }
                if (w.get(0).equals("}")) {
                    if (--depth == 0) {
                        close = i;
                    }
                    continue;
                }
                if (depth == 1 && left.containsKey(w.get(0))) {
                    String line = lines.get(i);
                    String own = line.substring(
                            0, line.length() - line.stripLeading().length());
                    lines.set(i, own + w.get(0) + " " + left.remove(w.get(0)));
                }
                if (w.get(w.size() - 1).equals("{")) {
                    depth++;
                }
            }
        }
        List<String> added = new ArrayList<>();
        for (Map.Entry<String, String> e : left.entrySet()) {
            added.add(inner + e.getKey() + " " + e.getValue());
        }
        lines.addAll(close, added);
        return String.join("\n", lines);
    }
}
