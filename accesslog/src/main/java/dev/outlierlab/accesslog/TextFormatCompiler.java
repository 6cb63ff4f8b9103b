package dev.outlierlab.accesslog;

import dev.outlierlab.config.InputException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Compiles an Envoy text access-log format string into a {@link TextLogFormat}: the literal text between the
 * operators, and for each operator the field replay reads from it ({@link Field}) or {@link Field#SKIP}.
 */
final class TextFormatCompiler {
    /** What replay reads from an operator's value; the ordinal is {@link TextLogFormat}'s field kind. */
    enum Field {
        SKIP,
        START_TIME,
        RESPONSE_CODE,
        RESPONSE_FLAGS,
        UPSTREAM_HOST,
        UPSTREAM_CLUSTER,
        DURATION,
        RESPONSE_DURATION,
        ATTEMPTS,
        INSTANCE
    }

    private TextFormatCompiler() {}

    /**
     * Compiles a format string.
     *
     * @param instanceOperator the operator (as written, e.g. {@code HOSTNAME} or {@code REQ(X-POD)}) whose value
     *                         names the proxy instance, or null
     * @throws InputException naming what is wrong with the format string
     */
    static TextLogFormat compile(String name, String format, String instanceOperator) {
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
                throw new InputException(
                        "log format " + name + ": the % at column " + (i + 1)
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
                throw new InputException(
                        "log format " + name + ": %" + operator
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
                    times.add(StartTimeFormat.compile(
                            argument == null || argument.isEmpty() ? StartTimeFormat.ENVOY_DEFAULT : argument));
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
        return new TextLogFormat(
                name,
                literals.toArray(new byte[0][]),
                fields.toArray(new Field[0]),
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
                ? operator.substring(0, colon)
                : operator;
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
}
