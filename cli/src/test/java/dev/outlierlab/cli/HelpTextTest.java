package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Help text reads as paragraphs at any width. Picocli starts every element of a {@code description}, header or
 * footer on a line of its own and wraps each at the usage width, so a sentence split by hand over two elements breaks
 * mid-sentence at any width but the one it was split for. An element ends a paragraph (a sentence end) or is followed
 * by an indented line (an example or a list item); a line that goes on with the sentence belongs in the same element.
 */
class HelpTextTest {
    @Test
    void noSentenceIsSplitOverTwoLinesOfHelp() {
        List<String> split = new ArrayList<>();
        collect(Main.commandLine().getCommandSpec(), split);
        assertThat(split)
                .as("help lines that go on with the sentence of the line before")
                .isEmpty();
    }

    @Test
    void aSentenceSplitOverTwoElementsIsFound() {
        assertThat(splitAt("here", new String[] {"One paragraph that goes on", "in the next line."}))
                .containsExactly("here: \"One paragraph that goes on\" / \"in the next line.\"");
        assertThat(splitAt("here", new String[] {"A list:", "over the line", "(and more)."}))
                .hasSize(2);
        assertThat(splitAt("here", new String[] {"One, e.g.", "  --set a=1", "  --set b=2", "", "Another one."}))
                .isEmpty();
        assertThat(splitAt("here", new String[] {"First sentence.", "Second paragraph.", "Examples:", "  a"}))
                .isEmpty();
    }

    @Test
    void everyExampleLineIsPrintedWholeAtEightyColumns() {
        CommandLine cli = Main.commandLine();
        cli.setUsageHelpWidth(80);
        List<String> commands = new ArrayList<>(List.of(""));
        commands.addAll(cli.getSubcommands().keySet());
        for (String name : commands) {
            CommandLine command = name.isEmpty() ? cli : cli.getSubcommands().get(name);
            List<String> printed =
                    command.getUsageMessage(CommandLine.Help.Ansi.OFF).lines().toList();
            assertThat(printed)
                    .as(name)
                    .allSatisfy(line -> assertThat(line.length()).isLessThanOrEqualTo(80));
            List<String> indented = new ArrayList<>();
            for (String[] lines : List.of(
                    command.getCommandSpec().usageMessage().description(),
                    command.getCommandSpec().usageMessage().footer())) {
                for (String line : lines) {
                    if (line.startsWith(" ")) {
                        indented.add(String.format(line));
                    }
                }
            }
            assertThat(printed).as(name).containsAll(indented);
        }
    }

    @Test
    void theHelpIsAsWideAsTheTerminalSaysUpToAHundredAndTenColumns() {
        assertThat(Main.helpWidth("80")).isEqualTo(80);
        assertThat(Main.helpWidth("250")).isEqualTo(110);
        assertThat(Main.helpWidth("40")).isEqualTo(55);
        assertThat(Main.helpWidth("")).isNull();
        assertThat(Main.helpWidth("0")).isNull();
        assertThat(Main.helpWidth("wide")).isNull();
        assertThat(Main.helpWidth(null)).isNull();
    }

    private static void collect(CommandSpec spec, List<String> split) {
        String name = spec.qualifiedName();
        split.addAll(splitAt(name + " (description)", spec.usageMessage().description()));
        split.addAll(splitAt(name + " (header)", spec.usageMessage().header()));
        split.addAll(splitAt(name + " (footer)", spec.usageMessage().footer()));
        for (ArgSpec arg : spec.args()) {
            String label = arg instanceof CommandLine.Model.OptionSpec option ? option.longestName() : arg.paramLabel();
            split.addAll(splitAt(name + " " + label, arg.description()));
        }
        for (CommandLine sub : spec.subcommands().values()) {
            if (sub.getCommandSpec().parent() == spec) {
                collect(sub.getCommandSpec(), split);
            }
        }
    }

    /** The places in {@code lines} where a line goes on with the sentence of the line before. */
    static List<String> splitAt(String where, String[] lines) {
        List<String> split = new ArrayList<>();
        for (int i = 0; i + 1 < lines.length; i++) {
            String line = lines[i].strip();
            String next = lines[i + 1];
            if (line.isEmpty() || next.isBlank() || Character.isWhitespace(next.charAt(0))) {
                continue;
            }
            boolean ended = line.endsWith(".") || line.endsWith("!") || line.endsWith("?") || line.endsWith("%n");
            if (!ended || Character.isLowerCase(next.codePointAt(0))) {
                split.add(where + ": \"" + line + "\" / \"" + next + "\"");
            }
        }
        return split;
    }
}
