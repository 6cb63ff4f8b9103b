package dev.outlierlab.cli;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.Wording;
import dev.outlierlab.sim.trace.TraceOrderException;
import java.io.PrintWriter;
import picocli.CommandLine;

/**
 * Entry point of the {@code outlier-lab} command. Bad input (a file, a key, a value) ends with one message on
 * standard error and exit status 2; no stack trace is shown unless {@code OUTLIER_LAB_DEBUG=1}.
 */
public final class Main {
    /** Exit status for bad input, as picocli uses for bad options. */
    public static final int EXIT_BAD_INPUT = 2;
    /** Exit status for an internal error (a bug). */
    public static final int EXIT_INTERNAL = 70;

    private Main() {
    }

    public static void main(String[] args) {
        System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs the command with the given streams and returns the exit status (used by tests). */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cli = commandLine();
        cli.setOut(out);
        cli.setErr(err);
        return cli.execute(args);
    }

    static CommandLine commandLine() {
        return withErrorHandling(new CommandLine(new OutlierLabCommand()));
    }

    /** {@code cli} with the command's handling of bad input (one message, exit 2) and internal errors. */
    public static CommandLine withErrorHandling(CommandLine cli) {
        cli.setParameterExceptionHandler((ex, args) -> {
            CommandLine failed = ex.getCommandLine();
            PrintWriter err = failed.getErr();
            err.println("outlier-lab: " + ex.getMessage());
            err.println("Run '" + failed.getCommandSpec().qualifiedName() + " --help' for the options.");
            return EXIT_BAD_INPUT;
        });
        cli.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            PrintWriter err = commandLine.getErr();
            if (ex instanceof InputException || ex instanceof TraceOrderException
                    || ex instanceof dev.outlierlab.engine.InvalidConfigException) {
                if (ex instanceof InputException input) {
                    err.println("outlier-lab: " + Wording.printable(input.headline()));
                    for (String detail : input.details()) {
                        err.println("  " + Wording.printable(detail));
                    }
                } else {
                    err.println("outlier-lab: " + Wording.printable(ex.getMessage()));
                }
                return EXIT_BAD_INPUT;
            }
            err.println("outlier-lab: internal error: " + ex);
            if ("1".equals(System.getenv("OUTLIER_LAB_DEBUG"))) {
                ex.printStackTrace(err);
            } else {
                err.println("(set OUTLIER_LAB_DEBUG=1 to see the stack trace, and please report it)");
            }
            return EXIT_INTERNAL;
        });
        return cli;
    }
}
