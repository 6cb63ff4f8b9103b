package dev.outlierlab.config.envoy;

import dev.outlierlab.config.yaml.Located;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Line numbers for messages and SARIF locations: the line a {@link Located} value starts on, and the line of
 * the key that holds a block (a block mapping's value starts on the line after its key).
 */
public final class SourceLines {
    private SourceLines() {}

    /**
     * The line of the key whose value starts at {@code valueLine}: the value of a block mapping starts on the
     * line after its key, so look back for the key by name.
     */
    public static int keyLine(List<String> lines, int valueLine, String... names) {
        for (int l = Math.min(valueLine, lines.size()); l >= 1 && l >= valueLine - 3; l--) {
            String text = lines.get(l - 1);
            for (String n : names) {
                if (text.matches("^\\s*(-\\s+)?[\"']?" + Pattern.quote(n) + "[\"']?\\s*:.*")) {
                    return l;
                }
            }
        }
        return valueLine;
    }

    public static int lineOf(Located node) {
        String origin = node.origin();
        try {
            return Integer.parseInt(origin.substring(origin.lastIndexOf(':') + 1));
        } catch (NumberFormatException e) {
            return 1;
        }
    }
}
