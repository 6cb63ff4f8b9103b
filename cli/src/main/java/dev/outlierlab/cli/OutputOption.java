package dev.outlierlab.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.function.Consumer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * The {@code --output FILE} option of the commands that print a report: the report goes to FILE instead of
 * standard output, whole or not at all ({@link OutputFiles#writeText}: a temporary file beside it, then moved over
 * it; a device or pipe such as {@code /dev/stdout} is written in place). Without it the report is printed.
 */
public final class OutputOption {
    @Option(
            names = "--output",
            paramLabel = "FILE",
            description = "Write the report to FILE instead of standard output, atomically (a temporary file in the"
                    + " same directory, then moved over FILE; a device such as /dev/stdout is written in place).")
    Path output;

    /**
     * Prints what {@code body} writes as it writes it, or writes it to the {@code --output} file (whole or not at
     * all): a report too large to hold as one string is streamed.
     */
    void emit(CommandSpec spec, Consumer<Appendable> body) {
        if (output == null) {
            BufferedWriter out = new BufferedWriter(spec.commandLine().getOut(), 1 << 16);
            try {
                body.accept(out);
                out.flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            spec.commandLine().getOut().flush();
        } else {
            OutputFiles.write(output, "--output", out -> {
                body.accept(out);
                return null;
            });
        }
    }

    /** Prints {@code text}, or writes it to the {@code --output} file. */
    void emit(CommandSpec spec, String text) {
        if (output == null) {
            spec.commandLine().getOut().print(text);
            spec.commandLine().getOut().flush();
        } else {
            OutputFiles.writeText(output, "--output", text);
        }
    }
}
