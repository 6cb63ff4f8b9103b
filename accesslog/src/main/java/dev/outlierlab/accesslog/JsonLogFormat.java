package dev.outlierlab.accesslog;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;

/**
 * JSON access logs, one object per line, as Envoy's {@code json_format} writes them. Keys are configurable
 * ({@link JsonKeys}); values may be strings or numbers ({@code "duration": 12} or {@code "duration": "12"}), and
 * {@code null} or {@code "-"} means absent. The start time is read with Envoy's default pattern unless another
 * is given (a fraction of any length is accepted), or as seconds since the epoch when it is a number. Keys that
 * replay does not use, and nested values, are skipped.
 */
public final class JsonLogFormat implements LogFormat {
    private static final JsonFactory FACTORY = new JsonFactory();
    /** The epoch seconds whose nanoseconds fit a long: 1677-09-21 to 2262-04-11. */
    private static final BigDecimal MIN_EPOCH_SECONDS = BigDecimal.valueOf(-9_223_372_036L);

    private static final BigDecimal MAX_EPOCH_SECONDS = BigDecimal.valueOf(9_223_372_036L);
    private final JsonKeys keys;
    private final StartTimeFormat time;
    private final byte[] scratch = new byte[0];

    public JsonLogFormat(JsonKeys keys, StartTimeFormat time) {
        this.keys = keys;
        this.time = time;
    }

    public JsonKeys keys() {
        return keys;
    }

    @Override
    public String name() {
        return "json";
    }

    @Override
    public boolean parse(byte[] b, int start, int end, ParsedLine out) {
        out.reset(b);
        if (end <= start || b[start] != '{') {
            return out.fail("not a JSON object (the line does not start with '{')");
        }
        ByteText text = new ByteText();
        try (JsonParser p = FACTORY.createParser(b, start, end - start)) {
            p.nextToken();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String key = p.currentName();
                JsonToken v = p.nextToken();
                if (v == JsonToken.START_OBJECT || v == JsonToken.START_ARRAY) {
                    p.skipChildren();
                    continue;
                }
                boolean absent = v == JsonToken.VALUE_NULL || v == JsonToken.VALUE_STRING && "-".equals(p.getText());
                if (key.equals(keys.startTime())) {
                    if (absent) {
                        continue;
                    }
                    if (v.isNumeric()) {
                        BigDecimal seconds = p.getDecimalValue();
                        // range first: 1e100000000 would be a hundred-million-digit integer, 1e30 would wrap
                        if (seconds.precision() - (long) seconds.scale() > 11
                                || seconds.scale() > 30
                                || seconds.compareTo(MIN_EPOCH_SECONDS) < 0
                                || seconds.compareTo(MAX_EPOCH_SECONDS) > 0) {
                            String shown = p.getText();
                            return out.fail(keys.startTime() + " "
                                    + (shown.length() > 40 ? shown.substring(0, 40) + "..." : shown)
                                    + " is out of range; expected seconds since 1970 from -9223372036 to "
                                    + "9223372036 (the years 1677 to 2262), with at most 30 decimals");
                        }
                        out.startEpochNanos = seconds.movePointRight(9)
                                .setScale(0, RoundingMode.FLOOR)
                                .longValueExact();
                    } else {
                        byte[] t = p.getText().getBytes(StandardCharsets.UTF_8);
                        long ns = time.parse(t, 0, t.length);
                        if (ns == Long.MIN_VALUE) {
                            return out.fail(keys.startTime() + " " + quoted(p.getText())
                                    + " does not match the pattern " + time.pattern());
                        }
                        out.startEpochNanos = ns;
                    }
                    out.hasStart = true;
                } else if (key.equals(keys.responseCode())) {
                    long c = absent ? 0 : number(p, v);
                    if (c < 0 || c > 999) {
                        return out.fail(keys.responseCode() + " " + quoted(p.getText()) + " is not a status code");
                    }
                    out.code = (int) c;
                } else if (key.equals(keys.duration())) {
                    long d = absent ? -1 : number(p, v);
                    if (!absent && d < 0) {
                        return out.fail(
                                keys.duration() + " " + quoted(p.getText()) + " is not a number of milliseconds");
                    }
                    if (ParsedLine.durationTooLong(d)) {
                        return out.failDurationTooLong(keys.duration(), p.getText());
                    }
                    out.durationNanos = d < 0 ? -1 : d * 1_000_000L;
                } else if (key.equals(keys.responseFlags())) {
                    byte[] f = absent ? scratch : p.getText().getBytes(StandardCharsets.UTF_8);
                    out.flags = ResponseFlag.parse(f, 0, f.length);
                } else if (key.equals(keys.upstreamHost())) {
                    text.hostValue = absent ? null : p.getText();
                } else if (key.equals(keys.upstreamCluster())) {
                    text.clusterValue = absent ? null : p.getText();
                } else if (key.equals(keys.instance())) {
                    text.instanceValue = absent ? null : p.getText();
                }
            }
        } catch (IOException e) {
            return out.fail("not valid JSON: " + firstLine(e.getMessage()));
        }
        if (!out.hasStart) {
            return out.fail("no \"" + keys.startTime() + "\" (set its key with --json-key start_time=KEY)");
        }
        if (out.code < 0) {
            return out.fail("no \"" + keys.responseCode() + "\" (set its key with --json-key response_code=KEY)");
        }
        text.store(out);
        return true;
    }

    private static long number(JsonParser p, JsonToken v) throws IOException {
        if (v == JsonToken.VALUE_NUMBER_INT) {
            return p.getLongValue();
        }
        if (v == JsonToken.VALUE_STRING) {
            String s = p.getText();
            if (s.isEmpty() || s.length() > 18 || !s.chars().allMatch(Character::isDigit)) {
                return -1;
            }
            return Long.parseLong(s);
        }
        return -1;
    }

    private static String firstLine(String message) {
        int nl = message == null ? -1 : message.indexOf('\n');
        return nl < 0 ? String.valueOf(message) : message.substring(0, nl);
    }

    /** Text values are re-encoded into one buffer that the line's ranges point into. */
    private static final class ByteText {
        String hostValue;
        String clusterValue;
        String instanceValue;

        void store(ParsedLine out) {
            byte[] h = hostValue == null ? new byte[0] : hostValue.getBytes(StandardCharsets.UTF_8);
            byte[] c = clusterValue == null ? null : clusterValue.getBytes(StandardCharsets.UTF_8);
            byte[] i = instanceValue == null ? null : instanceValue.getBytes(StandardCharsets.UTF_8);
            byte[] all = new byte[h.length + (c == null ? 0 : c.length) + (i == null ? 0 : i.length)];
            System.arraycopy(h, 0, all, 0, h.length);
            out.bytes = all;
            out.hostStart = 0;
            out.hostEnd = h.length;
            int p = h.length;
            if (c != null) {
                System.arraycopy(c, 0, all, p, c.length);
                out.clusterStart = p;
                out.clusterEnd = p + c.length;
                p += c.length;
            }
            if (i != null) {
                System.arraycopy(i, 0, all, p, i.length);
                out.instanceStart = p;
                out.instanceEnd = p + i.length;
            }
        }
    }

    /** A value for a message, as the text format shows one: its first 80 characters, in double quotes once. */
    static String quoted(String value) {
        return "\"" + (value.length() > 80 ? value.substring(0, 80) + "..." : value) + "\"";
    }
}
