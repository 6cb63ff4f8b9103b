package dev.outlierlab.cli;

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
    private Suggestions() {
    }

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
        return "Did you mean " + String.join(" or ", shown.stream().map(c -> "'" + c + "'").toList()) + "?";
    }

    /**
     * Subcommands within two edits of a mistyped first word ({@code rn}, {@code chekc}): picocli offers none when
     * the command itself takes no positional parameters.
     */
    private static List<String> closeSubcommands(UnmatchedArgumentException ex) {
        List<String> close = new ArrayList<>();
        String word = ex.getUnmatched().get(0);
        for (String name : ex.getCommandLine().getSubcommands().keySet()) {
            if (distance(word, name) <= Math.min(2, Math.max(1, name.length() / 3))) {
                close.add(name);
            }
        }
        return close;
    }

    /** Whether the first word left over names no subcommand of a command that has some: a mistyped command. */
    static boolean mistypedCommand(UnmatchedArgumentException ex) {
        List<String> typed = ex.getUnmatched();
        CommandLine command = ex.getCommandLine();
        return !typed.isEmpty() && !typed.get(0).startsWith("-") && !command.getSubcommands().isEmpty();
    }

    /** Levenshtein distance, with a transposition counted as one edit. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
