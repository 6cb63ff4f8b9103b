package dev.outlierlab.config.nginx;

import java.nio.file.Path;
import java.util.List;

/**
 * One directive of an nginx configuration, with where it is: its file, its line, and the characters it spans in
 * that file (from its name to its {@code ;}, or to its block's {@code {}), so that a writer can replace it and
 * leave everything else as it was.
 *
 * @param name  the directive's name
 * @param args  its arguments, quotes removed
 * @param file  the file it is in (an included file for directives from {@code include})
 * @param line  its line in that file, from 1
 * @param start the offset of its first character in the file's text
 * @param end   the offset just after its {@code ;} (or its {@code {} for a block)
 * @param block the directives inside its {@code { }}, or null when it has none
 */
public record ConfDirective(
        String name, List<String> args, Path file, int line, int start, int end, List<ConfDirective> block) {

    /** "FILE:LINE", for messages. */
    public String where() {
        return file.getFileName() + ":" + line;
    }

    /** The first argument, or "" when there is none. */
    public String arg(int i) {
        return i < args.size() ? args.get(i) : "";
    }
}
