package dev.outlierlab.accesslog;

import dev.outlierlab.accesslog.TextFormatCompiler.Field;
import dev.outlierlab.config.InputException;
import java.nio.charset.StandardCharsets;

/**
 * An Envoy text access-log format compiled from its format string: {@code %COMMAND%},
 * {@code %COMMAND(argument)%} and {@code %COMMAND(argument):length%} operators between literal text. The
 * operators replay reads are {@code START_TIME} (with its pattern, see {@link StartTimeFormat}),
 * {@code RESPONSE_CODE}, {@code RESPONSE_FLAGS} (or {@code RESPONSE_FLAGS_LONG}), {@code UPSTREAM_HOST},
 * {@code UPSTREAM_CLUSTER} (or {@code UPSTREAM_CLUSTER_RAW}), {@code DURATION}, {@code RESPONSE_DURATION},
 * {@code UPSTREAM_REQUEST_ATTEMPT_COUNT} and the instance operator chosen with {@code --instance-field}; every other
 * operator is skipped as text. A value runs up to the next literal text of the format (the last one to the end
 * of the line), so two operators need some text between them.
 */
public final class TextLogFormat implements LogFormat {
    // field kinds: the ordinals of TextFormatCompiler.Field, as ints so that the per-line switch is a plain jump
    private static final int SKIP = 0;
    private static final int START_TIME = 1;
    private static final int RESPONSE_CODE = 2;
    private static final int RESPONSE_FLAGS = 3;
    private static final int UPSTREAM_HOST = 4;
    private static final int DURATION = 6;

    static {
        // the constants above must stay the enum's ordinals (switch labels need constants, not ordinal() calls)
        if (Field.SKIP.ordinal() != SKIP
                || Field.START_TIME.ordinal() != START_TIME
                || Field.RESPONSE_CODE.ordinal() != RESPONSE_CODE
                || Field.RESPONSE_FLAGS.ordinal() != RESPONSE_FLAGS
                || Field.UPSTREAM_HOST.ordinal() != UPSTREAM_HOST
                || Field.DURATION.ordinal() != DURATION
                || Field.values().length > 16) {
            throw new IllegalStateException("TextFormatCompiler.Field's order changed: update TextLogFormat's kinds");
        }
    }

    private final String name;
    private final byte[][] literals;
    /**
     * For each field read from the start, what the forward pass needs in one int: the field's kind (bits 0-3), the
     * first byte of the literal after it (bits 8-15) and that literal's length (bits 16 and up).
     */
    private final int[] steps;
    /** Each literal of 2 to 8 bytes as a little-endian word (the bytes past it zero), to confirm a match in one compare. */
    private final long[] literalWords;

    private final Field[] fields;
    private final int[] kinds;
    private final StartTimeFormat[] times;
    private final boolean hasCluster;
    private final boolean hasInstance;
    /** Fields before this index are read from the start of the line, the needed ones after it from the end. */
    private final int split;
    /** The first needed field at or after {@link #split}, where reading from the end stops. */
    private final int tailStop;

    TextLogFormat(String name, byte[][] literals, Field[] fields, StartTimeFormat[] times) {
        this.name = name;
        this.literals = literals;
        this.fields = fields;
        this.times = times;
        this.kinds = new int[fields.length];
        this.steps = new int[fields.length];
        this.literalWords = new long[literals.length];
        for (int k = 0; k < fields.length; k++) {
            kinds[k] = fields[k].ordinal();
            byte[] next = literals[k + 1];
            steps[k] = kinds[k] | (next.length == 0 ? 0 : (next[0] & 0xFF) << 8) | next.length << 16;
        }
        for (int k = 0; k < literals.length; k++) {
            for (int i = 0; i < literals[k].length && i < 8; i++) {
                literalWords[k] |= (literals[k][i] & 0xFFL) << (8 * i);
            }
        }
        // Split after the needed field that precedes the longest run of skipped fields (user agent, request id,
        // authority, ... in the default formats): that run is never scanned.
        int bestRun = 0;
        int splitAt = fields.length;
        int run = 0;
        for (int k = fields.length - 1; k >= 0; k--) {
            if (fields[k] == Field.SKIP) {
                run++;
            } else {
                if (run > bestRun && k < fields.length - 1) {
                    bestRun = run;
                    splitAt = k + 1;
                }
                run = 0;
            }
        }
        int stop = fields.length;
        for (int k = splitAt; k < fields.length; k++) {
            if (fields[k] != Field.SKIP) {
                stop = k;
                break;
            }
        }
        this.split = bestRun >= 2 && stop < fields.length ? splitAt : fields.length;
        this.tailStop = bestRun >= 2 && stop < fields.length ? stop : fields.length;
        boolean c = false;
        boolean i = false;
        for (Field f : fields) {
            c |= f == Field.UPSTREAM_CLUSTER;
            i |= f == Field.INSTANCE;
        }
        this.hasCluster = c;
        this.hasInstance = i;
    }

    /**
     * Compiles a format string.
     *
     * @param instanceOperator the operator (as written, e.g. {@code HOSTNAME} or {@code REQ(X-POD)}) whose value
     *                         names the proxy instance, or null
     * @throws InputException naming what is wrong with the format string
     */
    public static TextLogFormat compile(String name, String format, String instanceOperator) {
        return TextFormatCompiler.compile(name, format, instanceOperator);
    }

    @Override
    public String name() {
        return name;
    }

    /** Whether lines carry the upstream cluster (so one log can hold several clusters). */
    public boolean hasCluster() {
        return hasCluster;
    }

    public boolean hasInstance() {
        return hasInstance;
    }

    @Override
    public boolean parse(byte[] b, int start, int end, ParsedLine out) {
        out.reset(b);
        int p = start;
        responseDuration = -1;
        int n = kinds.length;
        if (split > 0) {
            p = forward(b, start, end, out);
            if (p < 0) {
                return false;
            }
        }
        if (split < n) {
            // the rest from the end: the last literal ends the line, each value starts after its literal
            byte[] last = literals[n];
            if (end - last.length < p || !Bytes.matches(b, end - last.length, end, last)) {
                return out.fail("the line does not end with \"" + new String(last, StandardCharsets.UTF_8) + "\"");
            }
            int e = end - last.length;
            for (int k = n - 1; k >= tailStop; k--) {
                int litAt = Bytes.lastIndexOf(b, p, e, literals[k]);
                if (litAt < 0) {
                    return out.fail("no \"" + new String(literals[k], StandardCharsets.UTF_8) + "\" before column "
                            + (e - start + 1));
                }
                int valueStart = litAt + literals[k].length;
                if (kinds[k] == UPSTREAM_HOST) {
                    out.hostStart = valueStart;
                    out.hostEnd = e;
                } else if (!field(k, b, valueStart, e, out)) {
                    return false;
                }
                e = litAt;
            }
        } else if (!Bytes.matches(b, p, end, literals[n]) || p + literals[n].length != end) {
            return out.fail("unexpected text at column " + (p - start + 1) + " after the last field");
        }
        if (out.durationNanos < 0 && responseDuration >= 0) {
            out.durationNanos = responseDuration;
        }
        return true;
    }

    /**
     * Reads the fields before {@link #split} from the start of the line; returns where the literal after the last
     * of them starts, or -1 when the line is bad ({@code out} says why). The fields every line has are read here;
     * the rest, and every message, in methods of their own.
     */
    private int forward(byte[] b, int start, int end, ParsedLine out) {
        byte[] first = literals[0];
        if (!Bytes.matches(b, start, end, first)) {
            out.fail("expected \"" + new String(first, StandardCharsets.UTF_8) + "\" at column 1");
            return -1;
        }
        int[] plan = steps;
        int count = split;
        int p = start + first.length;
        int len = 0;
        for (int k = 0; k < count; k++) {
            // each literal after the first is where the search for it ended the value before
            int step = plan[k];
            len = step >>> 16;
            int valueEnd = len == 0 ? end : literalAt(b, p, end, k + 1, (byte) (step >>> 8), len);
            if (valueEnd < 0) {
                lineEndsEarly(k + 1, p - start, out);
                return -1;
            }
            int kind = step & 0xF;
            if (kind == UPSTREAM_HOST) {
                out.hostStart = p;
                out.hostEnd = valueEnd;
            } else if (kind == RESPONSE_CODE || kind == DURATION) {
                long v = number(b, p, valueEnd);
                if (kind == RESPONSE_CODE && v >= 0 && v <= 999) {
                    out.code = (int) v;
                } else if (kind == DURATION && v >= 0 && v <= ParsedLine.MAX_DURATION_MILLIS) {
                    out.durationNanos = v * 1_000_000L;
                } else if (!field(k, b, p, valueEnd, out)) {
                    return -1;
                }
            } else if (kind == RESPONSE_FLAGS) {
                out.flags = ResponseFlag.parse(b, p, valueEnd);
            } else if (kind == START_TIME) {
                long t = times[k].parse(b, p, valueEnd);
                if (t == Long.MIN_VALUE) {
                    badStartTime(k, b, p, valueEnd, out);
                    return -1;
                }
                out.startEpochNanos = t;
                out.hasStart = true;
            } else if (kind != SKIP && !field(k, b, p, valueEnd, out)) {
                return -1;
            }
            p = valueEnd + len;
        }
        return p - len;
    }

    /**
     * Where literal {@code lit} ({@code len} bytes, starting with {@code first}) first starts in {@code b[p, end)}
     * and fits before {@code end}, or -1: its first byte is searched a word at a time (one search for every
     * literal, so the JIT inlines one copy of it) and the rest of a literal of up to 8 bytes confirmed in one word
     * compare (with a word of room after the match).
     */
    private int literalAt(byte[] b, int p, int end, int lit, byte first, int len) {
        if (len > 8) {
            return Bytes.indexOf(b, p, end, literals[lit]);
        }
        int last = end - len + 1;
        for (int i = p; ; i++) {
            i = Bytes.indexOf(b, i, last, first);
            if (i < 0 || len == 1) {
                return i;
            }
            long mask = len == 8 ? -1L : (1L << (8 * len)) - 1;
            if (i + 8 <= b.length
                    ? (Bytes.word(b, i) & mask) == literalWords[lit]
                    : Bytes.matches(b, i, end, literals[lit])) {
                return i;
            }
        }
    }

    private boolean lineEndsEarly(int literal, int column, ParsedLine out) {
        return out.fail("line ends early: no \"" + new String(literals[literal], StandardCharsets.UTF_8)
                + "\" after column " + (column + 1));
    }

    /** RESPONSE_DURATION of the line being parsed (a format, like its start-time pattern, serves one thread). */
    private long responseDuration;

    /** Reads field {@code k}'s value {@code b[p, valueEnd)} into {@code out}; false (with the reason) if bad. */
    private boolean field(int k, byte[] b, int p, int valueEnd, ParsedLine out) {
        switch (kinds[k]) {
            case SKIP -> {
                return true;
            }
            case UPSTREAM_HOST -> {
                out.hostStart = p;
                out.hostEnd = valueEnd;
                return true;
            }
            case RESPONSE_CODE -> {
                long v = number(b, p, valueEnd);
                if (v == -2 || v > 999) {
                    return badCode(b, p, valueEnd, out);
                }
                out.code = v < 0 ? 0 : (int) v;
                return true;
            }
            case RESPONSE_FLAGS -> {
                out.flags = ResponseFlag.parse(b, p, valueEnd);
                return true;
            }
            case START_TIME -> {
                return startTime(k, b, p, valueEnd, out);
            }
            default -> {
                return otherField(k, b, p, valueEnd, out);
            }
        }
    }

    private boolean startTime(int k, byte[] b, int p, int valueEnd, ParsedLine out) {
        long t = times[k].parse(b, p, valueEnd);
        if (t == Long.MIN_VALUE) {
            return badStartTime(k, b, p, valueEnd, out);
        }
        out.startEpochNanos = t;
        out.hasStart = true;
        return true;
    }

    private boolean badStartTime(int k, byte[] b, int p, int valueEnd, ParsedLine out) {
        return out.fail("START_TIME " + quoted(b, p, valueEnd) + " does not match the pattern " + times[k].pattern());
    }

    private static boolean badCode(byte[] b, int p, int valueEnd, ParsedLine out) {
        return out.fail("RESPONSE_CODE " + quoted(b, p, valueEnd) + " is not a status code");
    }

    /** The fields {@link #field} leaves: the cluster, the instance, the durations and the attempt count. */
    private boolean otherField(int k, byte[] b, int p, int valueEnd, ParsedLine out) {
        switch (fields[k]) {
            case UPSTREAM_CLUSTER -> {
                out.clusterStart = p;
                out.clusterEnd = valueEnd;
            }
            case INSTANCE -> {
                out.instanceStart = p;
                out.instanceEnd = valueEnd;
            }
            case DURATION, RESPONSE_DURATION -> {
                long v = number(b, p, valueEnd);
                if (v == -2) {
                    return out.fail(
                            fields[k].name() + " " + quoted(b, p, valueEnd) + " is not a number of milliseconds");
                }
                if (ParsedLine.durationTooLong(v)) {
                    return out.failDurationTooLong(fields[k].name(), quoted(b, p, valueEnd));
                }
                if (fields[k] == Field.DURATION) {
                    out.durationNanos = v < 0 ? -1 : v * 1_000_000L;
                } else {
                    responseDuration = v < 0 ? -1 : v * 1_000_000L;
                }
            }
            case ATTEMPTS -> {
                long v = number(b, p, valueEnd);
                out.attempts = v < 0 ? -1 : (int) Math.min(v, Integer.MAX_VALUE);
            }
            default -> throw new IllegalStateException(fields[k].name());
        }
        return true;
    }

    /** A non-negative number, -1 for {@code -} or empty, -2 if not a number. */
    static long number(byte[] b, int s, int e) {
        if (e == s || e - s == 1 && b[s] == '-') {
            return -1;
        }
        if (e - s > 18) {
            return -2;
        }
        long v = 0;
        for (int i = s; i < e; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                return -2;
            }
            v = v * 10 + d;
        }
        return v;
    }

    /**
     * A value for a message, in double quotes once: a value that is itself quoted (a quoted field of another format,
     * read with the wrong {@code --log-format}) is shown without its own quotes, so {@code "payments"}, not
     * {@code ""payments""}.
     */
    static String quoted(byte[] b, int s, int e) {
        if (e - s >= 2 && b[s] == '"' && b[e - 1] == '"') {
            return "\"" + text(b, s + 1, e - 1) + "\"";
        }
        return "\"" + text(b, s, e) + "\"";
    }

    private static String text(byte[] b, int s, int e) {
        String t = new String(b, s, Math.min(e - s, 80), StandardCharsets.UTF_8);
        return e - s > 80 ? t + "..." : t;
    }
}
