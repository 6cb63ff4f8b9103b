package dev.outlierlab.accesslog;

import dev.outlierlab.config.InputException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Recognises a log's format from its first lines: each known format ({@link KnownFormats}, then JSON lines) is
 * tried on up to {@value #SAMPLE} non-blank lines and the first that reads at least 80 % of them wins. When none
 * does, the message names every format tried and why the first line did not fit it.
 */
public final class FormatDetector {
    static final int SAMPLE = 50;

    private FormatDetector() {}

    /** The format of {@code input}, among {@code candidates} (tried in order). */
    /** Whether bytes {@code from} to {@code to} are UTF-8 text without a NUL. */
    private static boolean isText(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] == 0) {
                return false;
            }
        }
        try {
            StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(b, from, to - from));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    public static LogFormat detect(LogInput input, List<LogFormat> candidates) {
        List<byte[]> lines = new ArrayList<>();
        int overlong = 0;
        int read = 0;
        int firstNotText = 0;
        // A peek reads at most SAMPLE lines of at most 8 KiB each from standard input: within its 1 MiB mark.
        try (LogLineReader r = new LogLineReader(input.open(new long[1], true), 8192)) {
            while (lines.size() < SAMPLE && r.next()) {
                read++;
                if (firstNotText == 0 && !r.tooLong() && !isText(r.buffer(), r.start(), r.end())) {
                    firstNotText = read;
                }
                if (r.tooLong()) {
                    overlong++;
                    continue;
                }
                if (r.end() == r.start()) {
                    continue;
                }
                lines.add(Arrays.copyOfRange(r.buffer(), r.start(), r.end()));
            }
        } catch (IOException e) {
            throw new InputException(input.name() + ": cannot be read (" + e.getMessage() + ")");
        }
        if (lines.isEmpty() && overlong > 0) {
            throw new InputException(
                    input.name() + ": " + (overlong == 1 ? "its only line is" : "all " + overlong + " lines read are")
                            + " longer than 8,192 bytes; expected access-log lines");
        }
        if (lines.isEmpty()) {
            throw new InputException(input.name() + ": the log has no lines");
        }
        ParsedLine p = new ParsedLine();
        List<String> why = new ArrayList<>();
        for (LogFormat f : candidates) {
            int ok = 0;
            String firstError = null;
            for (byte[] l : lines) {
                if (f.parse(l, 0, l.length, p)) {
                    ok++;
                } else if (firstError == null) {
                    firstError = p.error();
                }
            }
            if (ok * 5 >= lines.size() * 4) {
                return f;
            }
            why.add(f.name() + " (" + ok + " of " + lines.size() + " lines; first problem: " + firstError + ")");
        }
        if (firstNotText > 0) {
            // a binary file (an image, a database) is not a log of an unknown format
            throw new InputException(input.name() + ":" + firstNotText + ": not UTF-8 text; expected an access log ("
                    + KnownFormats.NAMES + ")");
        }
        throw new InputException(input.name() + ": the access-log format is not recognised; tried "
                + String.join(", ", why)
                + ". Name it with --log-format (" + KnownFormats.NAMES + ") or give the Envoy format string with "
                + "--log-format-string");
    }
}
