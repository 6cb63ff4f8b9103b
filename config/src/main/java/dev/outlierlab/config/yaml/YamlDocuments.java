package dev.outlierlab.config.yaml;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Splits a multi-document YAML stream ({@code ---} separators, as {@code kubectl} files have them) into one
 * text per document, each with the line of the file it starts at, so that line numbers in messages are the
 * file's. Each line is copied once: thousands of documents cost no more than one long one.
 */
public final class YamlDocuments {
    private static final Pattern START = Pattern.compile("^---(\\s.*)?$");
    private static final Pattern END = Pattern.compile("^\\.\\.\\.\\s*$");

    /** One document's text and the file's line (from 1) where that text starts. */
    public record Document(String text, int firstLine) {}

    private YamlDocuments() {}

    /** The documents of a stream, in order, without the empty ones. */
    public static List<Document> split(String text) {
        String[] lines = text.split("\r?\n", -1);
        List<Document> docs = new ArrayList<>();
        int from = 0;
        for (int i = 0; i <= lines.length; i++) {
            boolean boundary = i == lines.length
                    || START.matcher(lines[i]).matches()
                    || END.matcher(lines[i]).matches();
            if (!boundary) {
                continue;
            }
            boolean content = false;
            for (int j = from; j < i && !content; j++) {
                content = !lines[j].isBlank() && !lines[j].strip().startsWith("#");
            }
            if (content) {
                docs.add(new Document(String.join("\n", Arrays.asList(lines).subList(from, i)), from + 1));
            }
            if (i < lines.length && START.matcher(lines[i]).matches()) {
                // text after "---" on the same line belongs to the next document
                from = i;
                lines[i] = "   " + lines[i].substring(3);
            } else {
                from = i + 1;
            }
        }
        return docs;
    }
}
