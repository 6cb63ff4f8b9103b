package dev.outlierlab.config.nginx;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.Wording;
import dev.outlierlab.config.io.BoundedLineReader;
import dev.outlierlab.config.io.TextFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.PatternSyntaxException;

/**
 * Reads an nginx configuration into {@link ConfDirective}s the way nginx's {@code ngx_conf_read_token} splits it:
 * words separated by blanks, {@code "..."} and {@code '...'} quoting (with {@code \} escapes), {@code #} comments
 * to the end of the line, {@code ;} ending a directive, {@code { }} blocks. {@code include} is expanded in place:
 * a relative path is taken from the main file's directory (nginx's {@code conf} prefix), a mask such as
 * {@code conf.d/*.conf} matches files in name order. Bounded: each file at most 1 MiB, at most
 * {@value #MAX_FILES} files, blocks at most {@value #MAX_DEPTH} deep. Every error names the file and line.
 */
public final class NginxConfParser {
    public static final int MAX_FILES = 100;
    public static final int MAX_DEPTH = 32;
    private static final long MAX_CHARS = 1024 * 1024;

    private final Path baseDir;
    private final Map<Path, String> texts;
    private int files;

    private NginxConfParser(Path baseDir, Map<Path, String> texts) {
        this.baseDir = baseDir;
        this.texts = texts;
    }

    /** Parses {@code file} and its includes; the texts read are put in {@code texts} (for writing back). */
    public static List<ConfDirective> parse(Path file, Map<Path, String> texts) {
        Path abs = file.toAbsolutePath().normalize();
        Path dir = abs.getParent();
        return new NginxConfParser(dir, texts).parseFile(abs, file, 0, null);
    }

    /** Parses one text (no includes allowed), for tests and stdin. */
    public static List<ConfDirective> parseText(String text, Path name, Map<Path, String> texts) {
        NginxConfParser p = new NginxConfParser(name.toAbsolutePath().getParent(), texts);
        texts.put(name, text);
        return p.parseTokens(text, name, 0);
    }

    /**
     * Reads one file; {@code from} is the lexer of the file that includes it, null for the main file; {@code shown}
     * names it in a message that it cannot be read (the main file as the user gave it).
     */
    private List<ConfDirective> parseFile(Path file, Path shown, int depth, Lexer from) {
        if (++files > MAX_FILES) {
            String what = "more than " + MAX_FILES + " files through include (does a file include itself?); the lab"
                    + " reads at most " + MAX_FILES;
            throw from == null ? new InputException(file.getFileName() + ": " + what) : from.error(what);
        }
        if (from == null && Files.isDirectory(file)) {
            throw new InputException(shown + ": is a directory, expected an nginx configuration file");
        }
        String text;
        try (InputStream in = Files.newInputStream(file)) {
            text = BoundedLineReader.readText(in, shown.toString(), MAX_CHARS, "1 MiB");
        } catch (IOException e) {
            throw TextFiles.explain(shown, "", e);
        }
        texts.put(file, text);
        return parseTokens(text, file, depth);
    }

    private List<ConfDirective> parseTokens(String text, Path file, int depth) {
        Lexer lexer = new Lexer(text, file);
        List<ConfDirective> top = block(lexer, depth, false);
        return top;
    }

    private List<ConfDirective> block(Lexer lx, int depth, boolean inBlock) {
        if (depth > MAX_DEPTH) {
            throw lx.error("blocks are nested more than " + MAX_DEPTH + " deep");
        }
        List<ConfDirective> out = new ArrayList<>();
        List<String> words = new ArrayList<>();
        int start = -1;
        int line = 0;
        while (true) {
            Lexer.Token t = lx.next();
            if (t == null) {
                if (!words.isEmpty()) {
                    throw lx.error("unexpected end of file, expecting \";\" or \"}\"");
                }
                if (inBlock) {
                    throw lx.error("unexpected end of file, expecting \"}\"");
                }
                return out;
            }
            if (t.special() == '}') {
                if (!words.isEmpty()) {
                    throw lx.error("unexpected \"}\" after \"" + Wording.shortPrefix(words.get(0))
                            + "\"; expected \";\" to end the directive");
                }
                if (!inBlock) {
                    throw lx.error("unexpected \"}\"");
                }
                return out;
            }
            if (t.special() == ';' || t.special() == '{') {
                if (words.isEmpty()) {
                    throw lx.error("unexpected \"" + t.special() + "\"");
                }
                String name = words.get(0);
                List<String> args = List.copyOf(words.subList(1, words.size()));
                if (t.special() == ';') {
                    if (name.equals("include")) {
                        out.addAll(include(args, lx, depth));
                    } else {
                        out.add(new ConfDirective(name, args, lx.file, line, start, t.end(), null));
                    }
                } else {
                    int openEnd = t.end();
                    List<ConfDirective> inner = block(lx, depth + 1, true);
                    out.add(new ConfDirective(name, args, lx.file, line, start, openEnd, inner));
                }
                words.clear();
                continue;
            }
            if (words.isEmpty()) {
                start = t.start();
                line = t.line();
            }
            if (words.size() >= 1000) {
                throw lx.error("a directive with more than 1000 words");
            }
            words.add(t.text());
        }
    }

    private List<ConfDirective> include(List<String> args, Lexer lx, int depth) {
        if (args.size() != 1) {
            throw lx.error("include takes one file or mask");
        }
        String pattern = args.get(0);
        String shown = "include \"" + Wording.shortPrefix(pattern) + "\"";
        Path p;
        try {
            p = baseDir.resolve(pattern).normalize();
        } catch (InvalidPathException e) {
            throw lx.error(shown + " is not allowed; expected a file or a mask such as conf.d/*.conf");
        }
        String last = p.getFileName() == null ? "" : p.getFileName().toString();
        if (last.contains("*") || last.contains("?") || last.contains("[")) {
            List<Path> matches = new ArrayList<>();
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(p.getParent(), last)) {
                for (Path m : ds) {
                    if (matches.size() == MAX_FILES) {
                        throw lx.error(shown + " matches more than " + MAX_FILES + " files; the lab reads at most "
                                + MAX_FILES);
                    }
                    matches.add(m);
                }
            } catch (PatternSyntaxException | DirectoryIteratorException e) {
                throw lx.error(shown + " is not allowed; expected a file or a mask such as conf.d/*.conf");
            } catch (IOException e) {
                return List.of(); // nginx: a mask that matches nothing is not an error
            }
            matches.sort(null);
            List<ConfDirective> out = new ArrayList<>();
            for (Path m : matches) {
                Path included = regular(m, shown, lx);
                out.addAll(parseFile(included, included, depth, lx));
            }
            return out;
        }
        if (!Files.exists(p)) {
            throw lx.error(shown + ": no such file " + Wording.shortPrefix(p.toString()));
        }
        Path included = regular(p, shown, lx);
        return parseFile(included, included, depth, lx);
    }

    /**
     * {@code p} when it is a regular file: a directory, a device ({@code /dev/zero}) or a FIFO, which could keep
     * the reader waiting for ever, is refused with the include's line.
     */
    private static Path regular(Path p, String shown, Lexer lx) {
        if (!Files.isRegularFile(p)) {
            throw lx.error(shown + ": " + Wording.shortPrefix(p.toString())
                    + " is not a regular file; expected a configuration file");
        }
        return p;
    }

    /** Splits a text into words and the three special characters, with lines and offsets. */
    static final class Lexer {
        record Token(String text, char special, int line, int start, int end) {}

        private final String s;
        final Path file;
        private int pos;
        private int line = 1;

        Lexer(String s, Path file) {
            this.s = s;
            this.file = file;
        }

        InputException error(String what) {
            return new InputException(file.getFileName() + ":" + line + ": " + what);
        }

        Token next() {
            while (pos < s.length()) {
                char c = s.charAt(pos);
                if (c == '\n') {
                    line++;
                    pos++;
                } else if (Character.isWhitespace(c)) {
                    pos++;
                } else if (c == '#') {
                    while (pos < s.length() && s.charAt(pos) != '\n') {
                        pos++;
                    }
                } else {
                    break;
                }
            }
            if (pos >= s.length()) {
                return null;
            }
            char c = s.charAt(pos);
            int start = pos;
            if (c == ';' || c == '{' || c == '}') {
                pos++;
                return new Token(String.valueOf(c), c, line, start, pos);
            }
            StringBuilder word = new StringBuilder();
            int startLine = line;
            if (c == '"' || c == '\'') {
                pos++;
                while (true) {
                    if (pos >= s.length()) {
                        throw error("unexpected end of file in a quoted string");
                    }
                    char q = s.charAt(pos++);
                    if (q == c) {
                        break;
                    }
                    if (q == '\\' && pos < s.length()) {
                        q = s.charAt(pos++);
                    }
                    if (q == '\n') {
                        line++;
                    }
                    word.append(q);
                }
                return new Token(word.toString(), '\0', startLine, start, pos);
            }
            while (pos < s.length()) {
                char w = s.charAt(pos);
                if (Character.isWhitespace(w) || w == ';' || w == '{' || w == '}') {
                    break;
                }
                if (w == '\\' && pos + 1 < s.length()) {
                    pos++;
                    w = s.charAt(pos);
                }
                word.append(w);
                pos++;
            }
            return new Token(word.toString(), '\0', startLine, start, pos);
        }
    }
}
