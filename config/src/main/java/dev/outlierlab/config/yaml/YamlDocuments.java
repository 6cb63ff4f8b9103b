package dev.outlierlab.config.yaml;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Splits a multi-document YAML stream ({@code ---} separators, as {@code kubectl} files have them) into one
 * text per document. Every text keeps the whole stream's line count, with the other documents' lines blank,
 * so that line numbers in messages are the file's.
 */
public final class YamlDocuments {
    private static final Pattern START = Pattern.compile("^---(\\s.*)?$");
    private static final Pattern END = Pattern.compile("^\\.\\.\\.\\s*$");

    private YamlDocuments() {
    }

    /** The documents of a stream, each as the whole stream's lines with only its own kept. */
    public static List<String> split(String text) {
        String[] lines = text.split("\r?\n", -1);
        List<String> docs = new ArrayList<>();
        int from = 0;
        for (int i = 0; i <= lines.length; i++) {
            boolean boundary = i == lines.length || START.matcher(lines[i]).matches() || END.matcher(lines[i]).matches();
            if (!boundary) {
                continue;
            }
            String[] copy = new String[lines.length];
            Arrays.fill(copy, "");
            boolean content = false;
            for (int j = from; j < i; j++) {
                copy[j] = lines[j];
                content |= !lines[j].isBlank() && !lines[j].strip().startsWith("#");
            }
            if (i < lines.length && START.matcher(lines[i]).matches()) {
                // text after "---" on the same line belongs to the next document
                from = i;
                lines[i] = "   " + lines[i].substring(3);
            } else {
                from = i + 1;
            }
            if (content) {
                docs.add(String.join("\n", copy));
            }
        }
        return docs;
    }
}
