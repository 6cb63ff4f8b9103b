package dev.outlierlab.config;

import java.math.BigDecimal;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Words for messages about configuration: "did you mean" for unknown field names (the known name nearest to a
 * misspelt one, by edit distance with case and underscores ignored, so {@code maxEjectionPercentage} finds
 * {@code max_ejection_percent}), and how to show a value that is not allowed.
 */
public final class Wording {
    private Wording() {}

    /** The known name closest to {@code key} (ignoring case and underscores), if it is close enough. */
    public static String nearest(String key, Iterable<String> names) {
        String k = normalize(key);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String n : names) {
            int d = distance(k, normalize(n));
            if (d < bestDistance) {
                bestDistance = d;
                best = n;
            }
        }
        return bestDistance <= Math.max(2, k.length() / 4) ? best : null;
    }

    private static String normalize(String s) {
        return s.replace("_", "").toLowerCase(Locale.ROOT);
    }

    /** The Levenshtein distance between two strings: the fewest inserted, deleted or replaced characters. */
    public static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    /**
     * A value as a message shows it: text in quotes (its {@link #shortPrefix}), "a mapping", "a list", "an empty
     * value".
     */
    public static String describe(Object value) {
        if (value == null) {
            return "an empty value";
        }
        if (value instanceof Map) {
            return "a mapping";
        }
        if (value instanceof List) {
            return "a list";
        }
        if (value instanceof String s) {
            return "\"" + shortPrefix(s) + "\"";
        }
        if (value instanceof BigDecimal d) {
            // 1e2147483647 written out would be two billion digits
            return Math.abs((long) d.scale()) > 64 ? d.toString() : d.toPlainString();
        }
        return String.valueOf(value);
    }

    /** The most characters of a value a message echoes. */
    public static final int SHOWN_CHARS = 100;

    /**
     * A value as a message echoes it: {@link #printable}, cut to its first {@link #SHOWN_CHARS} characters
     * with the length said ({@code "aaaa..." (50000 characters)}), so a 50,000-character option or a 60 KB body
     * is never written back whole. Every reader, option and API that quotes what it was given uses this.
     */
    public static String shortPrefix(String value) {
        if (value == null) {
            return "";
        }
        if (value.length() <= SHOWN_CHARS) {
            return printable(value);
        }
        return printable(value.substring(0, SHOWN_CHARS)) + "... (" + value.length() + " characters)";
    }

    /** The most names a message lists. */
    public static final int LISTED_NAMES = 10;

    /**
     * Names as a message lists them: each as {@link #shortPrefix}, the first {@link #LISTED_NAMES} joined with commas
     * and the rest counted ({@code a, b, ... and 990 more}), so a file of a thousand long names gives a short message.
     */
    public static String someNames(Collection<String> names) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        for (String n : names) {
            if (i == LISTED_NAMES) {
                return out.append(" and ")
                        .append(names.size() - LISTED_NAMES)
                        .append(" more")
                        .toString();
            }
            out.append(i++ == 0 ? "" : ", ").append(shortPrefix(n));
        }
        return out.toString();
    }

    /**
     * The text with control characters and Unicode's bidirectional controls shown as escapes ({@code \e} as
     * {@code \u001b}, a line break as {@code \n}), so that a name from a file cannot move the cursor, clear
     * the terminal, set its title or forge a line of the report. Text without them is returned as it is.
     */
    public static String printable(String text) {
        int i = 0;
        while (i < text.length() && !unprintable(text.charAt(i))) {
            i++;
        }
        if (i == text.length()) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + 16).append(text, 0, i);
        for (; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!unprintable(c)) {
                out.append(c);
            } else if (c == '\n') {
                out.append("\\n");
            } else if (c == '\r') {
                out.append("\\r");
            } else if (c == '\t') {
                out.append("\\t");
            } else {
                out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            }
        }
        return out.toString();
    }

    /**
     * A whole report for a terminal: as {@link #printable} on every line, the line breaks kept, so a name from
     * a log (terminal escapes, NUL, a replacement character for invalid UTF-8) cannot drive the terminal.
     */
    public static String printableLines(String report) {
        boolean clean = true;
        for (int i = 0; i < report.length() && clean; i++) {
            char c = report.charAt(i);
            clean = c == '\n' || !unprintable(c) && c != '\ufffd';
        }
        if (clean) {
            return report;
        }
        String[] lines = report.split("\n", -1);
        StringBuilder out = new StringBuilder(report.length() + 64);
        for (int i = 0; i < lines.length; i++) {
            if (i > 0) {
                out.append('\n');
            }
            out.append(printable(lines[i]).replace("\ufffd", "\\ufffd"));
        }
        return out.toString();
    }

    private static boolean unprintable(char c) {
        return c < 0x20 || c >= 0x7f && c <= 0x9f || c >= 0x202a && c <= 0x202e || c >= 0x2066 && c <= 0x2069;
    }
}
