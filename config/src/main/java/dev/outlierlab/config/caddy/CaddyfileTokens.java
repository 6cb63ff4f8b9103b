package dev.outlierlab.config.caddy;

import dev.outlierlab.config.InputException;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Checks that a Caddyfile's blocks are closed, splitting it into tokens as Caddy's lexer does
 * ({@code caddyconfig/caddyfile/lexer.go}, {@code lexer.next}): blanks separate tokens, {@code #} at the start of a
 * token comments out the rest of the line, a token that starts with {@code "} or {@code `} runs to the matching quote
 * (across lines; {@code \"} inside double quotes), {@code \} escapes the next character, and a {@code <<MARKER}
 * heredoc runs to its marker. A {@code {} or {@code }} token, unquoted and alone, opens or closes a block. Caddy
 * refuses a file whose blocks are not closed ("Unexpected EOF"), so the lab does too, rather than read whatever a
 * missing brace or quote leaves in the block. The nesting is counted, never recursed into, so a hundred thousand
 * levels cost nothing but the count.
 */
final class CaddyfileTokens {
    private CaddyfileTokens() {}

    /** Refuses a text whose quotes, heredocs or braces are not closed, naming the line where the open one starts. */
    static void checkClosed(String text, String source) {
        Deque<Integer> open = new ArrayDeque<>();
        int line = 1;
        int i = 0;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (c == '\n') {
                line++;
                i++;
            } else if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '#') {
                while (i < n && text.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '"' || c == '`') {
                int opened = line;
                i++;
                while (i < n && text.charAt(i) != c) {
                    if (c == '"' && text.charAt(i) == '\\' && i + 1 < n) {
                        i++; // an escaped character, a quote included
                    }
                    line += text.charAt(i) == '\n' ? 1 : 0;
                    i++;
                }
                if (i >= n) {
                    throw new InputException(source + ":" + opened + ": the quote " + c + " opened on line " + opened
                            + " is never closed (unexpected end of file); expected a closing " + c);
                }
                i++;
            } else if (text.startsWith("<<", i)) {
                int end = text.indexOf('\n', i);
                String marker = (end < 0 ? text.substring(i + 2) : text.substring(i + 2, end)).strip();
                int close = end < 0 || marker.isEmpty() ? -1 : text.indexOf(marker, end + 1);
                if (close < 0) {
                    throw new InputException(source + ":" + line + ": the heredoc opened on line " + line
                            + " is never closed (unexpected end of file); expected a line with its closing marker");
                }
                for (int k = i; k < close; k++) {
                    line += text.charAt(k) == '\n' ? 1 : 0;
                }
                i = close + marker.length();
            } else {
                int start = i;
                while (i < n && !Character.isWhitespace(text.charAt(i))) {
                    i += text.charAt(i) == '\\' && i + 1 < n && text.charAt(i + 1) != '\n' ? 2 : 1;
                }
                if (i - start == 1 && c == '{') {
                    open.push(line);
                } else if (i - start == 1 && c == '}') {
                    if (open.isEmpty()) {
                        throw new InputException(
                                source + ":" + line + ": unexpected }; expected it to close a block opened with {");
                    }
                    open.pop();
                }
            }
        }
        if (!open.isEmpty()) {
            throw new InputException(source + ":" + open.peek() + ": the block opened with { on line " + open.peek()
                    + " is never closed (unexpected end of file); expected a } for it");
        }
    }
}
