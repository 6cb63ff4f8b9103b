package dev.outlierlab.cli;

import dev.outlierlab.report.format.Formats;
import dev.outlierlab.report.format.Renderer;
import java.io.IOException;
import java.io.UncheckedIOException;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code --format FORMAT} option of every command that renders a result, declared once. A command says which
 * formats it has by implementing {@link Formatted}; its help lists them, and a format it does not have is refused
 * with their names ({@code --format sarif is not available for run; allowed: text, json, csv}, exit 2). A case of
 * a command that offers fewer (a profile's run, a replay run as a Flink job) refuses with the names it offers.
 */
public final class FormatOption {
    /** A command with output formats: its registry of renderers, the first the default. */
    public interface Formatted {
        Formats<?> formats();
    }

    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    private String name;

    @Option(names = "--format", paramLabel = "FORMAT", description = "Output format (the command's help lists them).")
    void format(String value) {
        Formats<?> formats = formats();
        if (!formats.has(value)) {
            throw new ParameterException(mixee.commandLine(), formats.refusalText(value));
        }
        name = value;
    }

    /** The format given, or the command's default. */
    public String name() {
        return name != null ? name : formats().defaultName();
    }

    /** Whether the format is {@code format}. */
    public boolean is(String format) {
        return name().equals(format);
    }

    /** Renders {@code result} in the format given, refused unless {@code formats} offers it, through {@code output}. */
    <R> void emit(OutputOption output, CommandSpec spec, Formats<R> formats, R result) {
        Renderer<R> renderer = formats.renderer(name());
        output.emit(spec, out -> {
            try {
                renderer.render(result, out);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** {@code result} rendered in the format given, refused unless {@code formats} offers it. */
    <R> String render(Formats<R> formats, R result) {
        StringBuilder out = new StringBuilder();
        try {
            formats.renderer(name()).render(result, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /** Refuses the format given unless {@code formats} (a narrower case of the command) offers it. */
    void require(Formats<?> formats) {
        formats.require(name());
    }

    private Formats<?> formats() {
        return ((Formatted) mixee.userObject()).formats();
    }

    /** Writes each command's {@code --format} help from its registry: the formats it has, each with a line. */
    static void describe(CommandLine cli) {
        for (CommandLine sub : cli.getSubcommands().values()) {
            CommandSpec spec = sub.getCommandSpec();
            OptionSpec option = spec.findOption("--format");
            if (option != null && spec.userObject() instanceof Formatted formatted) {
                spec.remove(option);
                spec.addOption(OptionSpec.builder(option)
                        .description(formatted.formats().help().toArray(String[]::new))
                        .build());
            }
        }
    }
}
