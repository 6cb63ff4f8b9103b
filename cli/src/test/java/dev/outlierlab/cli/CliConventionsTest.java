package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command behaves as command-line users expect: usage, versions, suggestions, completion, one read of stdin. */
class CliConventionsTest {
    @Test
    void aBareCommandPrintsTheUsage() {
        CliRunner.Outcome bare = CliRunner.run();
        assertThat(bare.exit()).isZero();
        assertThat(bare.out()).startsWith("Usage: outlier-lab").contains("run", "replay", "sweep", "check", "serve");
        assertThat(bare.err()).isEmpty();
    }

    @Test
    void everyCommandTellsItsVersion() {
        String top = CliRunner.run("--version").out();
        assertThat(top)
                .startsWith("outlier-lab " + VersionText.version() + " (commit ")
                .contains("Java " + System.getProperty("java.version"), System.getProperty("java.home"));
        assertThat(VersionText.version()).isNotEqualTo("unknown");
        // Built from a git checkout (the tests always are, but for a copy without .git): the commit it was built from.
        if (Files.exists(Path.of("").toAbsolutePath().getParent().resolve(".git"))) {
            assertThat(VersionText.commit()).matches("[0-9a-f]{12}(-dirty)?|.*-g[0-9a-f]{12}(-dirty)?");
        }
        for (String command : new String[] {"run", "replay", "sweep", "tune", "check", "export", "serve", "proxy"}) {
            assertThat(CliRunner.run(command, "--version").out()).as(command).isEqualTo(top);
        }
    }

    @Test
    void aMistypedCommandOrOptionGetsASuggestion() {
        CliRunner.Outcome command = CliRunner.run("rn");
        assertThat(command.exit()).isEqualTo(2);
        assertThat(command.err()).contains("'rn' is not an outlier-lab command", "Did you mean 'run'?");
        CliRunner.Outcome option = CliRunner.run("run", "--formt", "json");
        assertThat(option.exit()).isEqualTo(2);
        assertThat(option.err()).contains("Unknown option: '--formt'", "Did you mean '--format'?");
        assertThat(CliRunner.run("zzzzzz").err()).doesNotContain("Did you mean");
        assertThat(CliRunner.run("chekc").err())
                .contains("Did you mean 'check'?")
                .doesNotContain("'help'");
    }

    @Test
    void aVaryValueIsReportedAsTheVary() {
        CliRunner.run("sweep", "--vary", "outlier_detection.max_ejection_percent=10,abc")
                .assertRejected("--vary outlier_detection.max_ejection_percent: \"abc\" is not allowed");
    }

    @Test
    void completionIsAScriptForBashAndZsh() {
        CliRunner.Outcome completion = CliRunner.run("generate-completion");
        assertThat(completion.exit()).isZero();
        assertThat(completion.out()).startsWith("#!/usr/bin/env bash").contains("complete -F", "replay", "--vary");
    }

    @Test
    void anEmptyScenarioIsRefusedNotTakenForTheDefault(@TempDir Path dir) throws Exception {
        Path empty = Files.writeString(dir.resolve("empty.yaml"), "# nothing here\n\n");
        CliRunner.run("run", empty.toString()).assertRejected("the scenario is empty");
    }

    @Test
    void aSweepOfStandardInputRunsEveryRowOnIt() {
        // Ten hosts at 1,000 rps: the default cap admits one ejection, so every row ejects; the default scenario
        // (six hosts) ejects nothing, which is what rows 2 and 3 used to show.
        InputStream saved = System.in;
        try {
            String scenario = "cluster: {hosts: 10}\ntraffic: {rps: 1000}\nfaults: [{hosts: 1,"
                    + " start: 30s, end: 240s, error_rate: 33, pattern: even}]\n";
            System.setIn(new ByteArrayInputStream(scenario.getBytes(StandardCharsets.UTF_8)));
            CliRunner.Outcome sweep = CliRunner.run("sweep", "-", "--vary", "seed=1,2,3", "--format", "csv");
            assertThat(sweep.exit()).as(sweep.err()).isZero();
            var rows = sweep.out().lines().skip(1).toList();
            assertThat(rows).hasSize(3);
            for (String row : rows) {
                assertThat(row.split(",")[2]).as(row).isNotEqualTo("0");
            }
        } finally {
            System.setIn(saved);
        }
    }

    @Test
    void aConfigurationGivenAsAScenarioNamesTheOptionThatReadsIt() {
        CliRunner.run("run", "../docs/examples/reviews-destination-rule.yaml")
                .assertRejected(
                        "this is a Kubernetes DestinationRule, not a scenario",
                        "--istio ../docs/examples/reviews-destination-rule.yaml --hosts N");
        CliRunner.run("run", "../docs/examples/search-cluster.yaml")
                .assertRejected(
                        "this is Envoy configuration, not a scenario", "--envoy ../docs/examples/search-cluster.yaml");
    }

    @Test
    void aValueOfTheWrongKindNamesTheOptionAndWhatIsAllowed() {
        // before: "Invalid value for option '--events': 'x' is not an int"
        CliRunner.Outcome events = CliRunner.run("run", "--events", "x");
        assertThat(events.exit()).isEqualTo(2);
        assertThat(events.err())
                .startsWith("outlier-lab: --events: \"x\" is not allowed; expected 0 (counts only) or more decisions to"
                        + " show, up to 2147483647\n");
        // before: "Invalid value for option '--to': expected one of [envoy, scenario] (case-sensitive) but was 'xml'"
        CliRunner.Outcome to = CliRunner.run("export", "--to", "xml");
        assertThat(to.exit()).isEqualTo(2);
        assertThat(to.err()).startsWith("outlier-lab: --to: \"xml\" is not allowed; expected one of envoy, scenario\n");
    }

    @Test
    void aBadReleaseIsNamedByItsOptionOnce() {
        // before: "--envoy-version: envoy_version: "1.99" is not allowed; ..."
        CliRunner.run("run", "--envoy-version", "1.99")
                .assertRejected("outlier-lab: --envoy-version: \"1.99\" is not allowed; expected an Envoy release from"
                        + " 1.26 to 1.40");
        CliRunner.run("check", "../docs/examples/search-cluster.yaml", "--envoy-version", "abc")
                .assertRejected("outlier-lab: --envoy-version: \"abc\" is not allowed; expected an Envoy release");
    }

    @Test
    void anOutlierDetectionFieldSetWithoutItsBlockIsPointedToIt() {
        CliRunner.run("run", "--set", "consecutive_5xx=3")
                .assertRejected("--set consecutive_5xx: unknown key 'consecutive_5xx' (did you mean"
                        + " 'outlier_detection.consecutive_5xx'?)");
        CliRunner.run("sweep", "--vary", "interval=5s,10s")
                .assertRejected("unknown key 'interval' (did you mean 'outlier_detection.interval'?)");
    }

    @Test
    void aBinaryFileGivenAsALogIsSaidToBeNotText(@TempDir Path dir) throws Exception {
        // before: "the access-log format is not recognised; tried envoy (0 of 1 lines; ...)" for a binary file
        Path bin = dir.resolve("access.bin");
        Files.write(bin, new byte[] {'[', 0, 1, 2, (byte) 0xff, (byte) 0xfe, 10, 'x', 10});
        CliRunner.run("replay", bin.toString())
                .assertRejected("access.bin:1: not UTF-8 text; expected an access log (envoy, istio");
        CliRunner.run("tune", "--from-log", bin.toString(), "--hosts", "4")
                .assertRejected("access.bin:1: not UTF-8 text; expected an access log");
        // a text line of an unknown format is still told the formats tried
        Path text = dir.resolve("app.log");
        Files.writeString(text, "2026-01-01 INFO started\n");
        CliRunner.run("replay", text.toString()).assertRejected("the access-log format is not recognised; tried");
    }

    @Test
    void anNginxFileThatCannotBeReadIsNamedAsGiven(@TempDir Path dir) throws Exception {
        // before: the absolute path (/home/.../no-such-nginx.conf), where every other input is named as given
        CliRunner.run("run", "--nginx", "no-such-nginx.conf")
                .assertRejected("outlier-lab: no-such-nginx.conf: cannot be read (no such file)\n");
        CliRunner.run("run", "--nginx", "src").assertRejected("outlier-lab: src: is a directory");
        Path bin = dir.resolve("nginx.conf");
        Files.write(bin, new byte[] {'h', 't', (byte) 0xff, (byte) 0xfe, 10});
        CliRunner.run("run", "--nginx", bin.toString()).assertRejected(bin + ":1: not UTF-8 text");
    }

    @Test
    void aNegativeEventCountIsRefused() {
        CliRunner.run("run", "--events", "-1").assertRejected("--events: -1 is not allowed");
    }

    @Test
    void aSetOverridesTheConfigurationItIsGivenWith() {
        // search-cluster.yaml has the default 10 % cap, and search-cluster-cap34.yaml is the same cluster with 34:
        // the first with --set 34 on top runs exactly as the second
        CliRunner.Outcome run = CliRunner.run(
                "run",
                "--envoy",
                "../docs/examples/search-cluster.yaml",
                "--set",
                "outlier_detection.max_ejection_percent=34",
                "--format",
                "json");
        CliRunner.Outcome fixed =
                CliRunner.run("run", "--envoy", "../docs/examples/search-cluster-cap34.yaml", "--format", "json");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.json().get("summary").get("ejections_overflow").asInt()).isZero();
        assertThat(run.json().get("summary").get("ejections_enforced").asInt()).isPositive();
        assertThat(run.json().get("summary")).isEqualTo(fixed.json().get("summary"));
        assertThat(run.json().get("events")).isEqualTo(fixed.json().get("events"));
    }

    @Test
    void sweepTakesTheConfigurationsRunTakes() {
        CliRunner.Outcome sweep = CliRunner.run(
                "sweep",
                "--envoy",
                "../docs/examples/search-cluster.yaml",
                "--vary",
                "outlier_detection.max_ejection_percent=10,34",
                "--format",
                "json");
        assertThat(sweep.exit()).as(sweep.err()).isZero();
        var runs = sweep.json().get("runs");
        assertThat(runs.get(0).get("summary").get("ejections_overflow").asInt()).isPositive();
        assertThat(runs.get(0).get("summary").get("ejections_enforced").asInt()).isZero();
        assertThat(runs.get(1).get("summary").get("ejections_overflow").asInt()).isZero();
        CliRunner.Outcome fixed =
                CliRunner.run("run", "--envoy", "../docs/examples/search-cluster-cap34.yaml", "--format", "json");
        assertThat(runs.get(1).get("summary")).isEqualTo(fixed.json().get("summary"));
        CliRunner.run("sweep", "--istio", "../docs/examples/reviews-destination-rule.yaml", "--vary", "seed=1,2")
                .assertRejected("--istio needs --hosts N");
    }

    @Test
    void callersAreRefusedWhereTheTrafficIsRecorded(@TempDir Path dir) {
        String log = dir.resolve("access.log").toString();
        assertThat(CliRunner.run("run", "--set", "duration=20s", "--access-log", log)
                        .exit())
                .isZero();
        CliRunner.run("replay", log, "--set", "traffic.clients=5")
                .assertRejected("traffic.clients 5: replay runs one detector per cluster and proxy instance");
        CliRunner.run(
                        "run",
                        "--trace-in",
                        "../cli/src/test/resources/fidelity-cases/R3-hash-order/trace.jsonl",
                        "--clients",
                        "5")
                .assertRejected("a trace is what one detector saw");
    }
}
