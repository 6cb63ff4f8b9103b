package dev.outlierlab.cli;

import dev.outlierlab.accesslog.BadLines;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.Wording;
import dev.outlierlab.config.scenario.DurationText;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * How access logs are read, for every command that reads them ({@code replay}, {@code tune --from-log}): how far a
 * line may end before one above it, and how many bad lines are too many (a count, or a percentage of the lines),
 * with the one message for each.
 */
public final class LogReadOptions {
    @Option(
            names = "--reorder-window",
            paramLabel = "DURATION",
            defaultValue = "2s",
            description =
                    "How far a line may end before one above it (several workers write a log); default ${DEFAULT-VALUE}.")
    String reorderWindow;

    @Option(
            names = "--max-bad-lines",
            paramLabel = "N|P%",
            defaultValue = "1%",
            description =
                    "More bad lines than this (a count, or a percentage of the lines) is exit 2; default ${DEFAULT-VALUE}.")
    String maxBadLines;

    /** {@code --reorder-window} in nanoseconds. */
    long reorderWindowNanos() {
        return duration("--reorder-window", reorderWindow);
    }

    /**
     * A count given to --max-bad-lines (the scan stops as soon as it is passed), or no count for a percentage (the
     * scan then stops once {@value BadLines#MOSTLY_BAD_MIN_LINES} lines are read and most are bad).
     */
    long badLineCount() {
        String m = maxBadLines.strip();
        if (m.endsWith("%")) {
            checkBadLines(new BadLines());
            return Long.MAX_VALUE;
        }
        try {
            long n = Long.parseLong(m);
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // the message below
        }
        throw notAllowed();
    }

    /**
     * The percentage given to --max-bad-lines, or NaN for a count: a read of {@code n} lines allows
     * {@code floor(percent / 100 * n)} bad lines, as {@link #checkBadLines} counts them.
     */
    double badLinePercent() {
        String m = maxBadLines.strip();
        if (!m.endsWith("%")) {
            return Double.NaN;
        }
        try {
            return Double.parseDouble(m.substring(0, m.length() - 1));
        } catch (NumberFormatException e) {
            throw notAllowed();
        }
    }

    /** Whether --max-bad-lines is a percentage (then a log that is mostly bad lines stops the reading early). */
    boolean isPercentage() {
        return maxBadLines.strip().endsWith("%");
    }

    /** Refuses more bad lines than {@code --max-bad-lines} allows, naming the first few. */
    void checkBadLines(BadLines lines) {
        long limit;
        String m = maxBadLines.strip();
        try {
            limit = m.endsWith("%") ? (long) Math.floor(percent(m) / 100.0 * lines.lines()) : Long.parseLong(m);
        } catch (NumberFormatException e) {
            throw notAllowed();
        }
        if (lines.bad() > limit) {
            List<String> first = new ArrayList<>();
            for (BadLines.Bad b : lines.first()) {
                first.add(b.toString());
            }
            String stopped = isPercentage() && lines.mostlyBad()
                    ? " (the reading stopped: more than half of the "
                            + String.format(Locale.ROOT, "%,d", BadLines.MOSTLY_BAD_MIN_LINES)
                            + " lines or more read are bad)"
                    : "";
            throw new InputException(
                    lines.bad() + (lines.bad() == 1 ? " bad line of " : " bad lines of ") + lines.lines()
                            + ", more than --max-bad-lines " + shortPrefix(maxBadLines) + " (" + limit + ")" + stopped
                            + "; the first " + lines.first().size() + ":",
                    first);
        }
    }

    /** The percentage of {@code 12.5%}: digits with an optional fraction, 0 to 100 (no NaN, no exponent). */
    private double percent(String m) {
        String digits = m.substring(0, m.length() - 1).strip();
        if (!digits.matches("\\d{1,3}(\\.\\d{1,6})?")) {
            throw notAllowed();
        }
        double p = Double.parseDouble(digits);
        if (p > 100) {
            throw notAllowed();
        }
        return p;
    }

    private InputException notAllowed() {
        return new InputException(
                "--max-bad-lines: '" + shortPrefix(maxBadLines) + "' is not allowed; expected a count "
                        + "(e.g. 100) or a percentage of the lines from 0% to 100% (e.g. 1%)");
    }

    /** A duration option's value in nanoseconds, or one message naming the option. */
    static long duration(String option, String text) {
        try {
            return DurationText.parse(text);
        } catch (IllegalArgumentException e) {
            throw new InputException(
                    option + ": '" + shortPrefix(text) + "' is not allowed; expected " + e.getMessage());
        }
    }

    private static String shortPrefix(String s) {
        return Wording.shortPrefix(s);
    }
}
