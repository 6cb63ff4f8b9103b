package dev.outlierlab.accesslog;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading logs: bounded lines, gzip, the reorder window, merging files, instances, bad-line accounting. */
class LogReadingTest {
    @TempDir
    Path dir;

    private static final TextLogFormat ENVOY = TextLogFormat.compile("envoy", KnownFormats.ENVOY, null);

    /** An Envoy default-format line starting at {@code ms} after 2026-11-30T00:00:00Z, lasting {@code duration} ms. */
    static String line(long ms, int duration, int code, String flags, String host) {
        long s = ms / 1000;
        return String.format(
                "[2026-11-30T00:%02d:%02d.%03dZ] \"GET / HTTP/1.1\" %d %s 0 0 %d - \"-\" \"t\" \"-\" \"a\" \"%s\"",
                s / 60, s % 60, ms % 1000, code, flags, duration, host);
    }

    private Path write(String name, List<String> lines) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, lines, StandardCharsets.UTF_8);
        return p;
    }

    private static List<LogEntry> read(List<LogInput> inputs, ReadSettings s, BadLines bad) {
        List<LogEntry> out = new ArrayList<>();
        try (MergedLog log = new MergedLog(inputs, s, bad, null)) {
            for (LogEntry e = log.next(); e != null; e = log.next()) {
                out.add(e);
            }
        }
        return out;
    }

    @Test
    void aLineOverTheLimitIsOneBadLineAndReadingGoesOn() throws IOException {
        byte[] data = ("short\n" + "x".repeat(5000) + "\nafter\r\nlast").getBytes(StandardCharsets.US_ASCII);
        try (LogLineReader r = new LogLineReader(new ByteArrayInputStream(data), 1000)) {
            List<String> lines = new ArrayList<>();
            while (r.next()) {
                lines.add(
                        r.tooLong()
                                ? "TOO LONG"
                                : new String(r.buffer(), r.start(), r.end() - r.start(), StandardCharsets.US_ASCII));
            }
            assertThat(lines).containsExactly("short", "TOO LONG", "after", "last");
            assertThat(r.lineNumber()).isEqualTo(4);
        }
    }

    @Test
    void outcomesAreOrderedByEndTimeWithinTheWindowAndLateOnesAreBadLines() throws IOException {
        Path p = write(
                "a.log",
                List.of(
                        line(1000, 500, 200, "-", "h1"), // ends 1.5 s
                        line(1200, 100, 200, "-", "h2"), // ends 1.3 s: written after, ended before
                        line(2000, 0, 503, "-", "h1"), // ends 2.0 s
                        line(9000, 0, 200, "-", "h2"), // ends 9.0 s: pushes the window on
                        line(1400, 0, 200, "-", "h1"), // ends 1.4 s: line 3 (2.0 s) went on when line 4 came
                        line(8500, 0, 200, "UH", "-"))); // no upstream host
        BadLines bad = new BadLines();
        List<LogEntry> entries = read(List.of(new LogInput("a.log", p)), ReadSettings.of(ENVOY), bad);
        assertThat(entries).extracting(e -> e.line()).containsExactly(2L, 1L, 3L, 4L);
        assertThat(bad.bad()).isEqualTo(1);
        assertThat(bad.first().get(0).toString())
                .isEqualTo("a.log:5: ends 0.600s before a line already replayed, "
                        + "more than the reorder window (2s); widen it with --reorder-window");
        assertThat(bad.noUpstreamHost()).isEqualTo(1);
        assertThat(bad.noHostByFlag()).containsEntry(ResponseFlag.UH, 1L);
        assertThat(bad.lines()).isEqualTo(6);
    }

    @Test
    void gzipFilesAndSeveralFilesMergeByTimeEachFileItsOwnInstance() throws IOException {
        Path plain = write("proxy-a.log", List.of(line(1000, 0, 200, "-", "h1"), line(3000, 0, 200, "-", "h1")));
        Path gz = dir.resolve("proxy-b.log.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
            out.write((line(2000, 0, 503, "-", "h2") + "\n" + line(4000, 0, 200, "-", "h2") + "\n")
                    .getBytes(StandardCharsets.UTF_8));
        }
        ReadSettings perFile = new ReadSettings(
                ENVOY,
                ReadSettings.DEFAULT_REORDER_WINDOW_NANOS,
                null,
                true,
                null,
                LogLineReader.DEFAULT_MAX_LINE_BYTES,
                100);
        List<LogEntry> entries = read(
                List.of(new LogInput("proxy-a.log", plain), new LogInput("proxy-b.log.gz", gz)),
                perFile,
                new BadLines());
        assertThat(entries)
                .extracting(e -> e.instance() + " " + e.host() + " " + e.code())
                .containsExactly(
                        "proxy-a.log h1 200", "proxy-b.log.gz h2 503", "proxy-a.log h1 200", "proxy-b.log.gz h2 200");
        try (LogScan.Result scan = LogScan.scan(
                List.of(new LogInput("proxy-a.log", plain), new LogInput("proxy-b.log.gz", gz)), perFile, null)) {
            assertThat(scan.groups())
                    .extracting(ReplayGroup::label)
                    .containsExactly("instance proxy-a.log", "instance proxy-b.log.gz");
            assertThat(scan.groups().get(1).hosts()).containsExactly("h2");
        }
    }

    @Test
    void standardInputIsReadOnceAfterTheFormatIsRecognisedFromItsFirstLines() {
        String log = line(1000, 0, 200, "-", "h1") + "\n" + line(1100, 0, 200, "-", "h2") + "\n";
        LogInput in = LogInput.of("-", new ByteArrayInputStream(log.getBytes(StandardCharsets.UTF_8)));
        LogFormat f =
                FormatDetector.detect(in, List.of(TextLogFormat.compile("istio", KnownFormats.ISTIO, null), ENVOY));
        assertThat(f.name()).isEqualTo("envoy");
        assertThat(read(List.of(in), ReadSettings.of(f), new BadLines()))
                .extracting(LogEntry::host)
                .containsExactly("h1", "h2");
    }

    @Test
    void anUnrecognisedFormatNamesEveryFormatTried() throws IOException {
        Path p = write("odd.log", List.of("127.0.0.1 - - [30/Nov/2026:19:36:35 +0000] \"GET / HTTP/1.1\" 200 612"));
        Assertions.assertThatThrownBy(() -> FormatDetector.detect(
                        new LogInput("odd.log", p),
                        List.of(
                                ENVOY,
                                new JsonLogFormat(
                                        JsonKeys.ISTIO, StartTimeFormat.compile(StartTimeFormat.ENVOY_DEFAULT)))))
                .hasMessageStartingWith(
                        "odd.log: the access-log format is not recognised; tried envoy (0 of 1 lines; "
                                + "first problem: expected \"[\" at column 1), json (0 of 1 lines; first problem: not a JSON object")
                .hasMessageContaining("--log-format-string");
    }

    @Test
    void theNumberOfDistinctNamesIsBounded() throws IOException {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            lines.add(line(1000 + i, 0, 200, "-", "h" + i));
        }
        BadLines bad = new BadLines();
        ReadSettings few = new ReadSettings(
                ENVOY,
                ReadSettings.DEFAULT_REORDER_WINDOW_NANOS,
                null,
                false,
                null,
                LogLineReader.DEFAULT_MAX_LINE_BYTES,
                4);
        assertThat(read(List.of(new LogInput("n.log", write("n.log", lines))), few, bad))
                .hasSize(4);
        assertThat(bad.bad()).isEqualTo(6);
        assertThat(bad.first().get(0).why()).isEqualTo("more than 4 distinct names");
    }
}
