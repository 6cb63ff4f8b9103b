package dev.outlierlab.cli;

import picocli.CommandLine.Model.CommandSpec;

/** A command as typed, for a report's "see" lines: {@code ./outlier-lab NAME ARGS}, each argument quoted for a shell. */
final class CommandText {
    private CommandText() {}

    /** {@code ./outlier-lab name} and the arguments given, a leading {@code name} argument once. */
    static String of(CommandSpec spec, String name) {
        String head = "./outlier-lab " + name;
        StringBuilder b = new StringBuilder(head);
        for (String arg : spec.commandLine().getParseResult().originalArgs()) {
            if (arg.equals(name) && b.length() == head.length()) {
                continue;
            }
            b.append(' ')
                    .append(arg.matches("[A-Za-z0-9_./=:,\\[\\]@%+-]+") ? arg : "'" + arg.replace("'", "'\\''") + "'");
        }
        return b.toString();
    }
}
