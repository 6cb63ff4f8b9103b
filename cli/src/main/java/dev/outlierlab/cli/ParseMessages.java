package dev.outlierlab.cli;

import dev.outlierlab.config.Wording;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ParameterException;

/**
 * Picocli's messages for an option value it cannot convert, in the command's own form: the option, the value, what
 * is allowed ({@code --events: "x" is not allowed; expected a whole number}) instead of Java's type names
 * ({@code Invalid value for option '--events': 'x' is not an int}).
 */
final class ParseMessages {
    private static final Pattern NOT_A_TYPE =
            Pattern.compile("Invalid value for option '([^']+)': '(.*)' is not an? (int|long|double|float)");
    private static final Pattern NOT_ONE_OF = Pattern.compile(
            "Invalid value for option '([^']+)': expected one of \\[(.*)\\] \\(case-sensitive\\) but was '(.*)'");

    private ParseMessages() {}

    /**
     * {@code ex}'s message in the command's form when it is one of picocli's conversion messages, else as it is: a
     * value that is not a number is told the range its option allows ({@link OptionRanges}), the type's only for an
     * option not listed there.
     */
    static String worded(ParameterException ex) {
        return worded(ex.getMessage(), OptionRanges.of(ex.getCommandLine().getCommandSpec(), ex.getArgSpec()));
    }

    /** {@code message} in the command's form; {@code allowed} is what the option allows, or null for its type's. */
    static String worded(String message, String allowed) {
        if (message == null) {
            return null;
        }
        Matcher type = NOT_A_TYPE.matcher(message);
        if (type.matches()) {
            String expected = allowed != null
                    ? allowed
                    : switch (type.group(3)) {
                        case "int" -> "a whole number up to " + Integer.MAX_VALUE;
                        case "long" -> "a whole number up to " + Long.MAX_VALUE;
                        default -> "a number";
                    };
            return type.group(1) + ": \"" + Wording.shortPrefix(type.group(2)) + "\" is not allowed; expected "
                    + expected;
        }
        Matcher choice = NOT_ONE_OF.matcher(message);
        if (choice.matches()) {
            return choice.group(1) + ": \"" + Wording.shortPrefix(choice.group(3))
                    + "\" is not allowed; expected one of " + choice.group(2);
        }
        return message;
    }
}
