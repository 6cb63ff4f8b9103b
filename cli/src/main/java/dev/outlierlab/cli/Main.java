package dev.outlierlab.cli;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.Wording;
import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.sim.trace.TraceOrderException;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.nio.file.InvalidPathException;
import picocli.CommandLine;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Entry point of the {@code outlier-lab} command. Bad input (a file, a key, a value) ends with one message on
 * standard error and exit status 2; no stack trace is shown unless {@code OUTLIER_LAB_DEBUG=1}.
 */
public final class Main {
    /** Exit status for bad input, as picocli uses for bad options. */
    public static final int EXIT_BAD_INPUT = 2;
    /** Exit status for an internal error (a bug). */
    public static final int EXIT_INTERNAL = 70;

    private Main() {}

    public static void main(String[] args) {
        WatchedOutput stdout = new WatchedOutput(new FileOutputStream(FileDescriptor.out));
        PrintWriter out = new PrintWriter(new OutputStreamWriter(stdout, Charset.defaultCharset()), true);
        PrintWriter err = new PrintWriter(System.err, true);
        int status = execute(args, out, err);
        out.flush();
        System.exit(checked(status, stdout.error(), err));
    }

    /**
     * A failed write to standard output (a full disk, {@code > /dev/full}, a closed pipe) is an error: a message
     * and exit status 2 instead of 0, as for any output file.
     */
    static int checked(int status, IOException stdoutError, PrintWriter err) {
        if (stdoutError == null || status != 0) {
            return status;
        }
        err.println("outlier-lab: cannot write the output to standard output (" + stdoutError.getMessage() + ")");
        return EXIT_BAD_INPUT;
    }

    /** Standard output that remembers its first write error, which a PrintWriter would only flag. */
    static final class WatchedOutput extends FilterOutputStream {
        private volatile IOException error;

        WatchedOutput(OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            try {
                out.write(b, off, len);
            } catch (IOException e) {
                remember(e);
                throw e;
            }
        }

        @Override
        public void write(int b) throws IOException {
            try {
                out.write(b);
            } catch (IOException e) {
                remember(e);
                throw e;
            }
        }

        @Override
        public void flush() throws IOException {
            try {
                out.flush();
            } catch (IOException e) {
                remember(e);
                throw e;
            }
        }

        private void remember(IOException e) {
            if (error == null) {
                error = e;
            }
        }

        IOException error() {
            return error;
        }
    }

    /** Runs the command with the given streams and returns the exit status (used by tests). */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cli = commandLine();
        cli.setOut(out);
        cli.setErr(err);
        return cli.execute(args);
    }

    static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new OutlierLabCommand());
        VersionText version = new VersionText();
        for (CommandLine sub : cli.getSubcommands().values()) {
            sub.getCommandSpec().versionProvider(version);
        }
        FormatOption.describe(cli);
        CommandLine completion = cli.getSubcommands().get("generate-completion");
        if (completion != null) {
            completion
                    .getCommandSpec()
                    .usageMessage()
                    .hidden(false)
                    .description("Print a bash/zsh completion script: source <(outlier-lab generate-completion)");
        }
        Integer width = helpWidth(System.getenv("COLUMNS"));
        if (width != null) {
            cli.setUsageHelpWidth(width);
        }
        return withErrorHandling(cli);
    }

    /** Widest help the commands print: 110 columns. */
    static final int HELP_WIDTH = 110;

    /**
     * The help width for a terminal {@code columns} wide (the {@code COLUMNS} variable, when the shell exports it):
     * that width, at most {@link #HELP_WIDTH} and at least picocli's minimum of 55; {@code null} (the commands' own
     * width) when it is not a number or is 0 (a terminal whose width is not known).
     */
    static Integer helpWidth(String columns) {
        if (columns == null || !columns.strip().matches("0*[1-9][0-9]{0,5}")) {
            return null;
        }
        return Math.max(55, Math.min(HELP_WIDTH, Integer.parseInt(columns.strip())));
    }

    /** {@code cli} with the command's handling of bad input (one message, exit 2) and internal errors. */
    public static CommandLine withErrorHandling(CommandLine cli) {
        cli.setParameterExceptionHandler((ex, args) -> {
            CommandLine failed = ex.getCommandLine();
            PrintWriter err = failed.getErr();
            String message =
                    ex instanceof UnmatchedArgumentException unmatched && Suggestions.mistypedCommand(unmatched)
                            ? "'" + unmatched.getUnmatched().get(0) + "' is not an outlier-lab command"
                            : ParseMessages.worded(ex);
            err.println("outlier-lab: " + Wording.printable(shortened(message)));
            String suggestion = Suggestions.of(ex);
            if (suggestion != null) {
                err.println(suggestion);
            }
            err.println("Run '" + failed.getCommandSpec().qualifiedName() + " --help' for the options.");
            return EXIT_BAD_INPUT;
        });
        cli.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            PrintWriter err = commandLine.getErr();
            if (ex instanceof InputException
                    || ex instanceof TraceOrderException
                    || ex instanceof InvalidConfigException) {
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
            if (ex instanceof InvalidPathException path) {
                // a file name from a file or an option that cannot be a path (a NUL in it): bad input, not a bug
                err.println("outlier-lab: '" + Wording.shortPrefix(path.getInput()) + "' is not a file name ("
                        + (path.getInput().indexOf('\0') >= 0 ? "it has a NUL character" : path.getReason()) + ")");
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

    /** A message quoting a user's argument, cut to a readable length (an argument can be megabytes long). */
    static String shortened(String message) {
        return message == null || message.length() <= 400 ? message : message.substring(0, 400) + "…";
    }
}
