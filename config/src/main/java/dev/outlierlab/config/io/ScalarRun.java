package dev.outlierlab.config.io;

/**
 * The length of the scalar being read, character by character: what the readers bound instead of the length of
 * a line. SnakeYAML's scanner is quadratic in the length of one scalar, not of one line, so a minified JSON
 * configuration of megabytes on one line (many short scalars between {@code , : { } [ ]}) is read, while one
 * value of a quarter of a megabyte (or a file of NUL bytes, one endless plain scalar) is still refused. A
 * double-quoted string counts as one scalar whatever it holds; a line break ends every scalar.
 */
public final class ScalarRun {
    private int length;
    private boolean quoted;
    private boolean escaped;

    /** Takes the next character and returns the length of the scalar it belongs to so far (0 for a separator). */
    public int accept(char c) {
        if (c == '\n' || c == '\r') {
            length = 0;
            quoted = false;
            escaped = false;
            return 0;
        }
        if (quoted) {
            if (escaped) {
                escaped = false;
            } else if (c == '\\') {
                escaped = true;
            } else if (c == '"') {
                quoted = false;
                length = 0;
                return 0;
            }
            return ++length;
        }
        switch (c) {
            case '"' -> {
                quoted = true;
                length = 0;
                return 0;
            }
            case ',', '{', '}', '[', ']', ':', ' ', '\t' -> {
                length = 0;
                return 0;
            }
            default -> {
                return ++length;
            }
        }
    }
}
