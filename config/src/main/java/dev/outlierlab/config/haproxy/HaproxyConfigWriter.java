package dev.outlierlab.config.haproxy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes tuned values back into a haproxy.cfg: on each of the backend's server lines, the tuned parameters
 * ({@code check}, {@code observe}, {@code error-limit}, {@code on-error}, {@code inter}, {@code fastinter},
 * {@code downinter}, {@code rise}, {@code fall}) are replaced where present and added at the end otherwise; the
 * line's indentation, other parameters and trailing comment are kept, and every other line is left as it was.
 */
public final class HaproxyConfigWriter {
    private static final List<String> FLAGS = List.of("check");

    private HaproxyConfigWriter() {}

    /**
     * The file's new text. {@code params} maps a parameter to its value ("" for a flag such as {@code check}), in
     * the order they are to be added.
     */
    public static String write(HaproxySettings settings, Map<String, String> params) {
        String[] lines = settings.text().split("\n", -1);
        for (int line : settings.serverLines()) {
            lines[line - 1] = rewrite(lines[line - 1], params);
        }
        return String.join("\n", lines);
    }

    static String rewrite(String line, Map<String, String> params) {
        int hash = line.indexOf('#');
        String body = hash >= 0 ? line.substring(0, hash) : line;
        String comment = hash >= 0 ? line.substring(hash) : "";
        int lead = 0;
        while (lead < body.length() && Character.isWhitespace(body.charAt(lead))) {
            lead++;
        }
        String trailing = body.substring(body.stripTrailing().length());
        List<String> words = new ArrayList<>(List.of(body.strip().split("\\s+")));
        Map<String, String> left = new LinkedHashMap<>(params);
        for (int i = 3; i < words.size(); i++) {
            String k = words.get(i);
            if (!left.containsKey(k)) {
                continue;
            }
            String v = left.remove(k);
            if (!FLAGS.contains(k) && i + 1 < words.size()) {
                words.set(i + 1, v);
                i++;
            }
        }
        for (Map.Entry<String, String> e : left.entrySet()) {
            words.add(e.getKey());
            if (!e.getValue().isEmpty()) {
                words.add(e.getValue());
            }
        }
        return body.substring(0, lead)
                + String.join(" ", words)
                + (comment.isEmpty() ? "" : (trailing.isEmpty() ? " " : trailing) + comment);
    }
}
