package dev.outlierlab.accesslog;

import dev.outlierlab.config.InputException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

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
    private enum Field { SKIP, START_TIME, RESPONSE_CODE, RESPONSE_FLAGS, UPSTREAM_HOST, UPSTREAM_CLUSTER, DURATION,
        RESPONSE_DURATION, ATTEMPTS, INSTANCE }

    private final String name;
    private final byte[][] literals;
    private final Field[] fields;
    private final StartTimeFormat[] times;
    private final boolean hasCluster;
    private final boolean hasInstance;
    /** Fields before this index are read from the start of the line, the needed ones after it from the end. */
    private final int split;
    /** The first needed field at or after {@link #split}, where reading from the end stops. */
    private final int tailStop;

    private TextLogFormat(String name, byte[][] literals, Field[] fields, StartTimeFormat[] times) {
        this.name = name;
        this.literals = literals;
        this.fields = fields;
        this.times = times;
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
        String f = format.endsWith("\n") ? format.substring(0, format.length() - 1) : format;
        List<byte[]> literals = new ArrayList<>();
        List<Field> fields = new ArrayList<>();
        List<StartTimeFormat> times = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        int i = 0;
        boolean instanceFound = false;
        while (i < f.length()) {
            char c = f.charAt(i);
            if (c != '%') {
                text.append(c);
                i++;
                continue;
            }
            int close = operatorEnd(f, i);
            if (close < 0) {
                throw new InputException("log format " + name + ": the % at column " + (i + 1)
                        + " starts an operator that is never closed; operators are written %COMMAND%, %COMMAND(arg)% or %COMMAND(arg):N%");
            }
            String operator = f.substring(i + 1, close);
            String command = operator;
            String argument = null;
            int paren = operator.indexOf('(');
            if (paren >= 0) {
                command = operator.substring(0, paren);
                int end = operator.lastIndexOf(')');
                argument = operator.substring(paren + 1, end < 0 ? operator.length() : end);
            }
            if (!text.isEmpty() || fields.isEmpty()) {
                literals.add(text.toString().getBytes(StandardCharsets.UTF_8));
                text.setLength(0);
            } else {
                throw new InputException("log format " + name + ": %" + operator
                        + "% follows the operator before it with no text between them, so their values cannot be told apart");
            }
            String bare = stripLength(operator);
            Field field = field(command);
            if (instanceOperator != null && bare.equals(instanceOperator)) {
                field = Field.INSTANCE;
                instanceFound = true;
            }
            fields.add(field);
            if (field == Field.START_TIME) {
                try {
                    times.add(StartTimeFormat.compile(argument == null || argument.isEmpty()
                            ? StartTimeFormat.ENVOY_DEFAULT : argument));
                } catch (IllegalArgumentException e) {
                    throw new InputException("log format " + name + ": " + e.getMessage());
                }
            } else {
                times.add(null);
            }
            i = close + 1;
        }
        literals.add(text.toString().getBytes(StandardCharsets.UTF_8));
        for (Field required : new Field[] {Field.START_TIME, Field.RESPONSE_CODE, Field.UPSTREAM_HOST}) {
            if (!fields.contains(required)) {
                throw new InputException("log format " + name + ": it has no %" + required.name()
                        + "%; replay needs %START_TIME%, %RESPONSE_CODE% and %UPSTREAM_HOST% (and %RESPONSE_FLAGS% and "
                        + "%DURATION% to be exact); see docs/replay.md for how to add them");
            }
        }
        if (instanceOperator != null && !instanceFound) {
            throw new InputException("--instance-field: " + instanceOperator + " is not an operator of the log format "
                    + name + "; give it as written in the format without the % signs, e.g. HOSTNAME or REQ(X-POD)");
        }
        return new TextLogFormat(name, literals.toArray(new byte[0][]), fields.toArray(new Field[0]),
                times.toArray(new StartTimeFormat[0]));
    }

    private static int operatorEnd(String f, int i) {
        int depth = 0;
        for (int j = i + 1; j < f.length(); j++) {
            char c = f.charAt(j);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == '%' && depth <= 0) {
                return j;
            } else if (c == ' ' && depth <= 0) {
                return -1;
            }
        }
        return -1;
    }

    private static String stripLength(String operator) {
        int close = operator.lastIndexOf(')');
        int colon = operator.indexOf(':', close < 0 ? 0 : close);
        return colon > 0 && operator.substring(colon + 1).chars().allMatch(Character::isDigit)
                ? operator.substring(0, colon) : operator;
    }

    private static Field field(String command) {
        return switch (command) {
            case "START_TIME" -> Field.START_TIME;
            case "RESPONSE_CODE" -> Field.RESPONSE_CODE;
            case "RESPONSE_FLAGS", "RESPONSE_FLAGS_LONG" -> Field.RESPONSE_FLAGS;
            case "UPSTREAM_HOST" -> Field.UPSTREAM_HOST;
            case "UPSTREAM_CLUSTER", "UPSTREAM_CLUSTER_RAW" -> Field.UPSTREAM_CLUSTER;
            case "DURATION" -> Field.DURATION;
            case "RESPONSE_DURATION" -> Field.RESPONSE_DURATION;
            case "UPSTREAM_REQUEST_ATTEMPT_COUNT" -> Field.ATTEMPTS;
            default -> Field.SKIP;
        };
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
        int n = fields.length;
        int forwardEnd = split;
        for (int k = 0; k < forwardEnd; k++) {
            byte[] lit = literals[k];
            // after the first, each literal is where the search for it ended the value before
            if (k == 0 && !Bytes.matches(b, p, end, lit)) {
                return out.fail("expected \"" + new String(lit, StandardCharsets.UTF_8) + "\" at column " + (p - start + 1));
            }
            p += lit.length;
            byte[] next = literals[k + 1];
            int valueEnd = k + 1 == n && next.length == 0 ? end : Bytes.indexOf(b, p, end, next);
            if (valueEnd < 0) {
                return out.fail("line ends early: no \"" + new String(next, StandardCharsets.UTF_8)
                        + "\" after column " + (p - start + 1));
            }
            if (!field(k, b, p, valueEnd, out)) {
                return false;
            }
            p = valueEnd;
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
                if (!field(k, b, litAt + literals[k].length, e, out)) {
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

    /** RESPONSE_DURATION of the line being parsed (a format, like its start-time pattern, serves one thread). */
    private long responseDuration;

    /**
     * Reads field {@code k}'s value {@code b[p, valueEnd)} into {@code out}; false (with the reason) if bad. Small,
     * so that it is inlined into {@link #parse}; the rarer fields and every message are in methods of their own.
     */
    private boolean field(int k, byte[] b, int p, int valueEnd, ParsedLine out) {
        switch (fields[k]) {
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
            return out.fail("START_TIME \"" + text(b, p, valueEnd) + "\" does not match the pattern "
                    + times[k].pattern());
        }
        out.startEpochNanos = t;
        out.hasStart = true;
        return true;
    }

    private static boolean badCode(byte[] b, int p, int valueEnd, ParsedLine out) {
        return out.fail("RESPONSE_CODE \"" + text(b, p, valueEnd) + "\" is not a status code");
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
                    return out.fail(fields[k].name() + " \"" + text(b, p, valueEnd) + "\" is not a number of milliseconds");
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

    private static String text(byte[] b, int s, int e) {
        String t = new String(b, s, Math.min(e - s, 80), StandardCharsets.UTF_8);
        return e - s > 80 ? t + "..." : t;
    }
}
