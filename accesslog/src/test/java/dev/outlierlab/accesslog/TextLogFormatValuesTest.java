package dev.outlierlab.accesslog;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The values of Envoy's default format as the parser reads them, at their edges: {@code -} and empty codes and
 * durations, the largest code, values that are not numbers, start times of another second or with another number
 * of fraction digits, and lines that end early or lack a literal. The common values take a short path and the
 * others a general one; both must read a line the same way and give the same reason for a bad one.
 */
class TextLogFormatValuesTest {
    private static final TextLogFormat ENVOY = TextLogFormat.compile("envoy", KnownFormats.ENVOY, null);
    private static final String LINE =
            "[2026-11-30T19:36:35.123Z] \"GET /a HTTP/1.1\" %s %s 0 612 %s 11 \"-\" \"curl/8\" \"id\" \"svc\" \"%s\"";
    private static final String REST = " \"GET /a HTTP/1.1\" 200 - 0 612 12 11 \"-\" \"curl/8\" \"id\" \"svc\" \"h\"";
    private static final long T = 1_796_067_395_123_000_000L;

    @Test
    void codesDurationsAndFlagsAtTheirEdges() {
        assertThat(read(String.format(LINE, "200", "-", "12", "10.0.0.1:80")))
                .isEqualTo("code=200 dur=12000000 start=" + T + " flags=0 host=10.0.0.1:80");
        assertThat(read(String.format(LINE, "-", "UF", "12", "10.0.0.1:80")))
                .isEqualTo("code=0 dur=12000000 start=" + T + " flags=" + ResponseFlag.UF.bit() + " host=10.0.0.1:80");
        assertThat(read(String.format(LINE, "0", "UT,URX", "-", "10.0.0.1:80")))
                .isEqualTo("code=0 dur=-1 start=" + T + " flags=" + (ResponseFlag.UT.bit() | ResponseFlag.URX.bit())
                        + " host=10.0.0.1:80");
        assertThat(read(String.format(LINE, "999", "-", "0", "-")))
                .isEqualTo("code=999 dur=0 start=" + T + " flags=0 host=-");
        assertThat(read(String.format(LINE, "", "-", "", "h")))
                .isEqualTo("code=0 dur=-1 start=" + T + " flags=0 host=h");
        assertThat(read(String.format(LINE, "1000", "-", "12", "h")))
                .isEqualTo("bad: RESPONSE_CODE \"1000\" is not a status code");
        assertThat(read(String.format(LINE, "20x", "-", "12", "h")))
                .isEqualTo("bad: RESPONSE_CODE \"20x\" is not a status code");
        assertThat(read(String.format(LINE, "200", "-", "1x", "h")))
                .isEqualTo("bad: DURATION \"1x\" is not a number of milliseconds");
        assertThat(read(String.format(LINE, "200", "-", "1234567890123456789", "h")))
                .isEqualTo("bad: DURATION \"1234567890123456789\" is not a number of milliseconds");
        // 18 digits would overflow in nanoseconds (it once read as 2,003,764,205,205,896,640 ns, a time in 2033):
        // anything over ten years is refused, on the short path and the general one alike
        assertThat(read(String.format(LINE, "200", "-", "999999999999999999", "h")))
                .isEqualTo("bad: DURATION \"999999999999999999\" is more than 316224000000 milliseconds (ten years, "
                        + "the longest duration the lab accepts)");
        assertThat(read(String.format(LINE, "200", "-", "316224000001", "h")))
                .startsWith("bad: DURATION \"316224000001\" is more than");
        assertThat(read(String.format(LINE, "200", "-", "316224000000", "h")))
                .isEqualTo("code=200 dur=316224000000000000 start=" + T + " flags=0 host=h");
        assertThat(read(String.format(LINE, "20x", "-", "999999999999999999", "h")))
                .isEqualTo("bad: RESPONSE_CODE \"20x\" is not a status code");
    }

    @Test
    void startTimesOfEachShapeAndLinesThatDoNotFit() {
        // the same second as the line before (the remembered prefix), then a new one, with 0, 1 and 3 fraction digits
        assertThat(read("[2026-11-30T19:36:35.123Z]" + REST)).startsWith("code=200 dur=12000000 start=" + T + " ");
        assertThat(read("[2026-11-30T19:36:35.9Z]" + REST))
                .startsWith("code=200 dur=12000000 start=" + (T + 777_000_000L) + " ");
        assertThat(read("[2026-11-30T19:36:36Z]" + REST))
                .startsWith("code=200 dur=12000000 start=1796067396000000000 ");
        assertThat(read("[2026-11-30T19:36:36.5Z]" + REST))
                .startsWith("code=200 dur=12000000 start=1796067396500000000 ");
        assertThat(read("[2026-13-30T19:36:35.123Z]" + REST))
                .isEqualTo(
                        "bad: START_TIME \"2026-13-30T19:36:35.123Z\" does not match the pattern %Y-%m-%dT%H:%M:%E3SZ");
        assertThat(read("[2026-11-30T19:36:35.123Z] \"GET /a HTTP/1.1\" 200"))
                .isEqualTo("bad: line ends early: no \" \" after column 46");
        assertThat(read("[2026-11-30T19:36:35.123" + REST))
                .isEqualTo("bad: line ends early: no \"] \"\" after column 2");
        assertThat(read("(2026-11-30T19:36:36.5Z]" + REST)).isEqualTo("bad: expected \"[\" at column 1");
        assertThat(read("[2026-11-30T19:36:36.5Z]" + REST.substring(0, REST.length() - 1)))
                .isEqualTo("bad: the line does not end with \"\"\"");
        // the host is what follows the last " \"" before the closing quote
        assertThat(read("[2026-11-30T19:36:36.5Z]" + REST.replace("\"svc\" \"h\"", "\"svc\"h\"")))
                .endsWith(" host=svc\"h");
    }

    @Test
    void aJsonDurationOverTenYearsIsABadLineToo() {
        JsonLogFormat json = new JsonLogFormat(JsonKeys.ISTIO, StartTimeFormat.compile(StartTimeFormat.ENVOY_DEFAULT));
        String line = "{\"start_time\":\"2026-11-30T19:36:35.123Z\",\"response_code\":200,\"duration\":%s,"
                + "\"upstream_host\":\"h\"}";
        ParsedLine p = new ParsedLine();
        byte[] ok = String.format(line, "316224000000").getBytes(StandardCharsets.UTF_8);
        assertThat(json.parse(ok, 0, ok.length, p)).as(p.error()).isTrue();
        assertThat(p.durationNanos).isEqualTo(316_224_000_000_000_000L);
        for (String tooLong : new String[] {"316224000001", "999999999999999999", "\"999999999999999999\""}) {
            byte[] b = String.format(line, tooLong).getBytes(StandardCharsets.UTF_8);
            assertThat(json.parse(b, 0, b.length, p)).isFalse();
            assertThat(p.error())
                    .isEqualTo("duration " + tooLong.replace("\"", "") + " is more than 316224000000 "
                            + "milliseconds (ten years, the longest duration the lab accepts)");
        }
    }

    @Test
    void aQuotedValueInAFieldThatIsNotQuotedIsShownInOnePairOfQuotes() {
        // an Istio line whose DURATION is a quoted word: quoted once, not ""payments""
        TextLogFormat istio = TextLogFormat.compile("istio", KnownFormats.ISTIO, null);
        String line = "[2026-11-30T19:36:35.123Z] \"GET /a HTTP/1.1\" 200 - via_upstream - \"-\" 0 612 \"payments\" 11"
                + " \"-\" \"curl/8\" \"id\" \"svc\" \"10.0.0.1:80\" outbound|80||svc - - - - default";
        assertThat(read(istio, line)).isEqualTo("bad: DURATION \"payments\" is not a number of milliseconds");
        // a long value: its first 80 characters, then ...
        assertThat(read(istio, line.replace("\"payments\"", "\"" + "p".repeat(100) + "\"")))
                .isEqualTo("bad: DURATION \"" + "p".repeat(80) + "...\" is not a number of milliseconds");
        assertThat(read(String.format(LINE, "\"200\"", "-", "12", "h")))
                .isEqualTo("bad: RESPONSE_CODE \"200\" is not a status code");
    }

    @Test
    void aJsonLogShowsABadValueInOnePairOfQuotesToo() {
        JsonLogFormat json = new JsonLogFormat(JsonKeys.ISTIO, StartTimeFormat.compile(StartTimeFormat.ENVOY_DEFAULT));
        String line = "{\"start_time\":\"2026-11-30T19:36:35.123Z\",\"response_code\":200,\"duration\":%s,"
                + "\"upstream_host\":\"h\"}";
        byte[] b = String.format(line, "\"payments\"").getBytes(StandardCharsets.UTF_8);
        ParsedLine p = new ParsedLine();
        assertThat(json.parse(b, 0, b.length, p)).isFalse();
        assertThat(p.error()).isEqualTo("duration \"payments\" is not a number of milliseconds");
        byte[] code = String.format(line, "12").replace("200", "\"20x\"").getBytes(StandardCharsets.UTF_8);
        ParsedLine c = new ParsedLine();
        assertThat(json.parse(code, 0, code.length, c)).isFalse();
        assertThat(c.error()).isEqualTo("response_code \"20x\" is not a status code");
    }

    private static String read(String line) {
        return read(ENVOY, line);
    }

    private static String read(TextLogFormat format, String line) {
        byte[] b = ("xx" + line + "\n").getBytes(StandardCharsets.UTF_8);
        ParsedLine p = new ParsedLine();
        if (!format.parse(b, 2, b.length - 1, p)) {
            return "bad: " + p.error();
        }
        return "code=" + p.code + " dur=" + p.durationNanos + " start=" + p.startEpochNanos + " flags=" + p.flags
                + " host="
                + (p.hostStart < 0
                        ? "none"
                        : new String(b, p.hostStart, p.hostEnd - p.hostStart, StandardCharsets.UTF_8));
    }
}
