package dev.outlierlab.cli;

import dev.outlierlab.config.Wording;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The "did you mean" line after a mistyped command or option ({@code rn}, {@code --formt}): picocli's own
 * candidates, which it ranks by similarity to what was typed, at most three.
 */
final class Suggestions {
    private Suggestions() {}

    /** The line to print, or null when nothing typed is close to a known command or option. */
    static String of(ParameterException ex) {
        if (!(ex instanceof UnmatchedArgumentException unmatched)) {
            return null;
        }
        List<String> candidates = mistypedCommand(unmatched) ? closeSubcommands(unmatched) : unmatched.getSuggestions();
        if (candidates == null) {
            return null;
        }
        if (candidates.isEmpty()) {
            return null;
        }
        List<String> shown = candidates.subList(0, Math.min(3, candidates.size()));
        return "Did you mean "
                + String.join(" or ", shown.stream().map(c -> "'" + c + "'").toList()) + "?";
    }

    /**
     * Subcommands within two edits (one for a short name) of a mistyped first word ({@code rn}, {@code chekc}): picocli offers none when
     * the command itself takes no positional parameters.
     */
    private static List<String> closeSubcommands(UnmatchedArgumentException ex) {
        List<String> close = new ArrayList<>();
        String word = ex.getUnmatched().get(0);
        for (String name : ex.getCommandLine().getSubcommands().keySet()) {
            if (Wording.distance(word, name) <= (name.length() <= 3 ? 1 : 2)) {
                close.add(name);
            }
        }
        return close;
    }

    /** Whether the first word left over names no subcommand of a command that has some: a mistyped command. */
    static boolean mistypedCommand(UnmatchedArgumentException ex) {
        List<String> typed = ex.getUnmatched();
        CommandLine command = ex.getCommandLine();
        return !typed.isEmpty()
                && !typed.get(0).startsWith("-")
                && !command.getSubcommands().isEmpty();
    }
}
