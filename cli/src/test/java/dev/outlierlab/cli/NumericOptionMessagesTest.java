package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Every numeric option of every command, found from the commands themselves (so an option added later is covered):
 * a value that is not a number is one message naming the option, the value's start and the range that option allows,
 * not its Java type's ({@code tune --rps abc} once said "up to 9223372036854775807" where tune allows 1 to 10000000).
 */
class NumericOptionMessagesTest {
    private record Numeric(List<String> command, String option, String allowed) {}

    private static List<Numeric> numericOptions() {
        List<Numeric> out = new ArrayList<>();
        collect(Main.commandLine(), new ArrayList<>(), out);
        return out;
    }

    private static void collect(CommandLine cli, List<String> path, List<Numeric> out) {
        for (OptionSpec o : cli.getCommandSpec().options()) {
            Class<?> t = o.type();
            if ((t.isPrimitive() && t != boolean.class) || Number.class.isAssignableFrom(t)) {
                out.add(new Numeric(path, o.longestName(), OptionRanges.of(cli.getCommandSpec(), o)));
            }
        }
        cli.getSubcommands().forEach((name, sub) -> {
            List<String> next = new ArrayList<>(path);
            next.add(name);
            collect(sub, next, out);
        });
    }

    @Test
    void everyNumericOptionOfEveryCommandSaysItsOwnRange() {
        List<Numeric> options = numericOptions();
        assertThat(options)
                .as("the commands' numeric options")
                .extracting(n -> String.join(" ", n.command()) + " " + n.option())
                .contains("tune --rps", "tune --hosts", "run --rps", "check --hosts", "proxy --port", "serve --port");
        for (Numeric n : options) {
            String label = String.join(" ", n.command()) + " " + n.option();
            assertThat(n.allowed()).as(label + ": a range in OptionRanges").isNotNull();
            List<String> args = new ArrayList<>(n.command());
            args.add(n.option());
            args.add("abc" + "x".repeat(200)); // a long value is quoted by its start only
            CliRunner.Outcome o = CliRunner.run(args.toArray(String[]::new));
            o.assertRejected(n.option() + ": \"abcxxx", "\" is not allowed; expected " + n.allowed() + "\n");
            assertThat(o.err()).as(label).doesNotContain("x".repeat(100));
            if (!n.allowed().contains(Long.toString(Long.MAX_VALUE))) {
                assertThat(o.err()).as(label).doesNotContain(Long.toString(Long.MAX_VALUE));
            }
        }
    }

    @Test
    void tunesRpsSaysTunesRangeForAValueThatIsNotANumberAsForOneOutOfRange() {
        CliRunner.run("tune", "--rps", "abc")
                .assertRejected(
                        "outlier-lab: --rps: \"abc\" is not allowed; expected 1 to 10000000 requests per second");
        CliRunner.run("tune", "--hosts", "3", "--rps", "0")
                .assertRejected("--rps: 0 is not allowed; expected 1 to 10000000 requests per second");
        CliRunner.run("tune", "--hosts", "x")
                .assertRejected("--hosts: \"x\" is not allowed; expected 2 to 10000 hosts");
        CliRunner.run("tune", "--hosts", "1", "--rps", "10")
                .assertRejected("--hosts: 1 is not allowed; expected 2 to 10000 hosts");
    }

    @Test
    void runsOptionsSayTheSameRangeForBothKindsOfBadValue() {
        CliRunner.run("run", "--rps", "many")
                .assertRejected("--rps: \"many\" is not allowed; expected " + OptionRanges.RPS);
        CliRunner.run("run", "--rps", "0").assertRejected("--rps: 0 is not allowed; expected " + OptionRanges.RPS);
        CliRunner.run("run", "--hosts", "0")
                .assertRejected("--hosts: 0 is not allowed; expected " + OptionRanges.HOSTS);
        CliRunner.run("run", "--hosts", "100001")
                .assertRejected("--hosts: 100001 is not allowed; expected " + OptionRanges.HOSTS);
        CliRunner.run("run", "--hosts", "1e3")
                .assertRejected("--hosts: \"1e3\" is not allowed; expected " + OptionRanges.HOSTS);
        CliRunner.run("replay", "-", "--events", "-1")
                .assertRejected("--events: -1 is not allowed; expected " + OptionRanges.EVENTS);
        CliRunner.run("serve", "--port", "70000").assertRejected("--port: 70000 is not a port; use 1 to 65535");
        CliRunner.run("serve", "--port", "http").assertRejected("--port: \"http\" is not allowed; expected 1 to 65535");
    }
}
