package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run report's verdict, its fix (checked by running the fix), the collapsed decision rows, the Envoy "Why
 * not" section and the aligned time column, on real runs of the default scenario and variations of it.
 */
class RunReportTest {

    private static String text(String... sets) {
        String[] args = new String[1 + 2 * sets.length];
        args[0] = "run";
        for (int i = 0; i < sets.length; i++) {
            args[1 + 2 * i] = "--set";
            args[2 + 2 * i] = sets[i];
        }
        CliRunner.Outcome o = CliRunner.run(args);
        assertThat(o.exit()).as(o.err()).isZero();
        return o.out();
    }

    private static String line(String report, String label) {
        return Arrays.stream(report.split("\n"))
                .filter(l -> l.startsWith("  " + label + " "))
                .findFirst()
                .orElse(null);
    }

    private static long count(String report, String label) {
        Matcher m = Pattern.compile("  " + label + " +([0-9,]+)").matcher(report);
        assertThat(m.find()).as(label).isTrue();
        return Long.parseLong(m.group(1).replace(",", ""));
    }

    @Test
    void theDefaultRunLeadsWithTheCapThatAdmitsNoHostAndTheSmallestThatAdmitsOne() {
        String r = text();
        List<String> head = Arrays.asList(r.split("\n")).subList(0, 4);
        assertThat(head.get(2))
                .isEqualTo("  verdict       21 detections but no ejection: max_ejection_percent 10 admits"
                        + " no host of 6 ((0+1)/6 = 16.7 % > 10 %)");
        assertThat(head.get(3))
                .isEqualTo("  fix           max_ejection_percent 17 (the smallest that admits one host of"
                        + " 6), or always_eject_one_host true");
        // the fix is true: 17 ejects, 16 still admits none
        assertThat(count(text("outlier_detection.max_ejection_percent=17"), "ejections"))
                .isEqualTo(3);
        assertThat(count(text("outlier_detection.max_ejection_percent=16"), "ejections"))
                .isZero();
        assertThat(count(text("outlier_detection.always_eject_one_host=true"), "ejections"))
                .isPositive();
    }

    @Test
    void twentyOneIdenticalRefusalsAreOneRowWithTheirCountAndTimes() {
        String r = text();
        String decisions = r.substring(r.indexOf("\nDecisions\n"), r.indexOf("\nWhy not\n"));
        List<String> rows = Arrays.stream(decisions.split("\n"))
                .filter(l -> l.startsWith("  21 x"))
                .toList();
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0))
                .startsWith("  21 x 40 s .. 240 s every 10 s host-0 overflow   success_rate ")
                .endsWith("succeeded 67.0 % < threshold 71.1 % (mean 94.5, stdev 12.3, factor 1.9, 6 hosts);"
                        + " cap (0+1)/6 = 16.7 % > 10 % -> refused by the cap (overflow)");
        assertThat(decisions.split("\n")).hasSize(4); // blank, title, header, the row
    }

    @Test
    void theWhyNotSectionGivesEachIdleDetectorsReasonFromTheNumbers() {
        String r = text();
        assertThat(line(r, "consecutive_5xx"))
                .endsWith("the faults spread their failures evenly: at most 1 5xx in a"
                        + " row, below consecutive_5xx 5");
        assertThat(line(r, "success_rate"))
                .endsWith("detected 21 times, refused by the cap: cap (0+1)/6 = 16.7 % > 10 %");
        assertThat(line(r, "failure_percentage"))
                .endsWith("enforcing_failure_percentage 0 % (Envoy's default): it" + " detects, never ejects");
        // 75 % evenly makes runs of 3, 66 % runs of 2
        String three = text("faults[0].error_rate=75", "outlier_detection.max_ejection_percent=17");
        assertThat(line(three, "consecutive_5xx")).endsWith("at most 3 5xx in a row, below consecutive_5xx 5");
        String two = text("faults[0].error_rate=66", "outlier_detection.max_ejection_percent=17");
        assertThat(line(two, "consecutive_5xx")).endsWith("at most 2 5xx in a row, below consecutive_5xx 5");
    }

    @Test
    void aDetectorThatCanNeverRunIsTheVerdictAndItsFixMakesItRun() {
        String r = text("outlier_detection.success_rate_request_volume=5000");
        assertThat(line(r, "verdict"))
                .isEqualTo("  verdict       nothing detected: success_rate never runs (about 1,000"
                        + " requests per host per interval < success_rate_request_volume 5000); the failures come at most 1 in"
                        + " a row, below consecutive_5xx 5 (the faults spread them evenly; faults[0].pattern=random or bursts"
                        + " fails in runs)");
        assertThat(line(r, "fix"))
                .isEqualTo("  fix           success_rate_request_volume 1000 (what each host gets per" + " interval)");
        assertThat(line(r, "success_rate"))
                .endsWith("never runs: about 1,000 requests per host per 10 s interval,"
                        + " below success_rate_request_volume 5000");
        assertThat(count(text("outlier_detection.success_rate_request_volume=1000"), "detections"))
                .isEqualTo(21);
        String hosts = text("outlier_detection.success_rate_minimum_hosts=10");
        assertThat(line(hosts, "fix"))
                .isEqualTo(
                        "  fix           success_rate_minimum_hosts 6 (with so few hosts, one bad host moves the mean"
                                + " a lot)");
        assertThat(count(text("outlier_detection.success_rate_minimum_hosts=6"), "detections"))
                .isEqualTo(21);
    }

    @Test
    void aCapOf100PercentThatEndsInPanicIsTheVerdictAndTheFixKeepsTheClusterOutOfPanic() {
        String r = text(
                "outlier_detection.max_ejection_percent=100",
                "faults[0].hosts=[host-0,host-1,host-2,host-3]",
                "faults[0].error_rate=100");
        assertThat(line(r, "verdict"))
                .contains("up to 4 of 6 hosts out at once under max_ejection_percent 100: the"
                        + " cluster was in panic for 209.8 s");
        assertThat(line(r, "fix"))
                .isEqualTo("  fix           max_ejection_percent 50 (at most 3 of 6 hosts out, 50.0 %"
                        + " left in rotation)");
        String fixed = text(
                "outlier_detection.max_ejection_percent=50",
                "faults[0].hosts=[host-0,host-1,host-2,host-3]",
                "faults[0].error_rate=100");
        assertThat(line(fixed, "panic")).isEqualTo("  panic         0.0 s");
        assertThat(line(fixed, "fix")).isNull();
    }

    @Test
    void timesOfDifferentWidthsKeepOneColumnAndTheLegendOnlyWithAMark() {
        String r = text(
                "faults[0].start=30.61s",
                "faults[0].error_rate=100",
                "outlier_detection.max_ejection_percent=50",
                "outlier_detection.base_ejection_time=12.000000001s");
        String decisions = r.substring(r.indexOf("\nDecisions\n") + 1, r.indexOf("\nWhy not\n"));
        List<String> rows = Arrays.asList(decisions.split("\n")).subList(1, decisions.split("\n").length);
        assertThat(rows).hasSizeGreaterThan(3);
        assertThat(rows).anyMatch(l -> l.contains("30.6"));
        int column = rows.get(0).indexOf("host");
        assertThat(rows).allSatisfy(l -> assertThat(l.indexOf("host-0")).isIn(column, -1));
        assertThat(rows.stream().filter(l -> l.contains("host-0")).count()).isEqualTo(rows.size() - 1);
        assertThat(r).contains("max_ejection_percent 50*  (* = set; others are Envoy's defaults)");
        assertThat(text()).doesNotContain("* = set").contains("max_ejection_percent 10  (Envoy's defaults)");
    }

    @Test
    void eventsCountsRowsAndSaysHowManyDecisionsAreNotShown() {
        String r = CliRunner.run(
                        "run",
                        "--set",
                        "faults[0].error_rate=100",
                        "--set",
                        "outlier_detection.max_ejection_percent=50",
                        "--events",
                        "2")
                .out();
        String decisions = r.substring(r.indexOf("\nDecisions\n") + 1, r.indexOf("\nWhy not\n"));
        String[] lines = decisions.split("\n");
        assertThat(lines).hasSize(5); // title, header, two rows, the rest counted
        assertThat(lines[4])
                .matches("  \\.\\.\\. [0-9,]+ more decisions \\(raise --events, or use --format json or csv"
                        + " for all\\)");
    }

    @Test
    void runCsvHasOneRowPerDecisionWithItsNumbers() {
        CliRunner.Outcome o = CliRunner.run("run", "--format", "csv");
        assertThat(o.exit()).isZero();
        String[] rows = o.out().split("\n");
        assertThat(rows).hasSize(22);
        assertThat(rows[0])
                .isEqualTo("time_s,time_ns,client,host,action,type,success_rate_percent,threshold_percent,"
                        + "mean_percent,stdev_percent,failure_percent,host_requests,consecutive,consecutive_threshold,"
                        + "cap_ejected_before,cap_hosts,cap_percent_if_ejected,max_ejection_percent,cap_allowed,"
                        + "enforcing_percent,draw,ejection_ns,multiplier,out_for_ns");
        assertThat(rows[1]).startsWith("40,40000000000,,host-0,overflow,success_rate,67.0");
        assertThat(rows[1]).contains(",0,6,16.6667,10,false,");
        assertThat(rows[21]).startsWith("240,240000000000,,host-0,overflow,");
    }

    @Test
    void replayCsvHasOneRowPerDetectorAndHost(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("access.log");
        assertThat(CliRunner.run(
                                "run",
                                "--set",
                                "outlier_detection.max_ejection_percent=17",
                                "--set",
                                "duration=120s",
                                "--access-log",
                                log.toString())
                        .exit())
                .isZero();
        CliRunner.Outcome o = CliRunner.run(
                "replay", log.toString(), "--set", "outlier_detection.max_ejection_percent=17", "--format", "csv");
        assertThat(o.exit()).as(o.err()).isZero();
        String[] rows = o.out().split("\n");
        assertThat(rows[0])
                .isEqualTo("cluster,instance,host,requests,failed,ejections,ejected_s,ejected_ns,"
                        + "requests_while_ejected,failed_while_ejected");
        assertThat(rows).hasSize(7);
        // host-0 failed a third of its requests from 30 s; the settings ejected it twice, 70 s in all
        assertThat(rows[1]).isEqualTo(",,host-0,5000,660,2,70,70000000000,0,0");
        assertThat(rows[2]).isEqualTo(",,host-1,13400,0,0,0,0,0,0");
    }

    @Test
    void outputWritesTheReportWholeToTheFileAndBadPathsAreOneMessage(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("report.json");
        CliRunner.Outcome o = CliRunner.run("run", "--format", "json", "--output", file.toString());
        assertThat(o.exit()).isZero();
        assertThat(o.out()).isEmpty();
        assertThat(Files.readString(file, StandardCharsets.UTF_8))
                .isEqualTo(CliRunner.run("run", "--format", "json").out());
        try (var listing = Files.list(dir)) {
            assertThat(listing.toList()).containsExactly(file); // no temporary file left
        }
        for (String[] command : List.of(
                new String[] {"export", "--to", "envoy"},
                new String[] {"check", "../docs/examples/search-cluster.yaml"},
                new String[] {"sweep", "--vary", "cluster.hosts=5,6"})) {
            Path out = dir.resolve(command[0] + ".out");
            String[] args = Arrays.copyOf(command, command.length + 2);
            args[command.length] = "--output";
            args[command.length + 1] = out.toString();
            CliRunner.Outcome c = CliRunner.run(args);
            assertThat(c.out()).isEmpty();
            assertThat(Files.readString(out))
                    .isEqualTo(CliRunner.run(command).out())
                    .isNotEmpty();
        }
        Path missing = dir.resolve("no/such/dir/report.txt");
        CliRunner.Outcome bad = CliRunner.run("run", "--output", missing.toString());
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err().strip())
                .isEqualTo("outlier-lab: --output " + missing + ": cannot be written (no such directory)");
        assertThat(bad.out()).isEmpty();
        CliRunner.Outcome toDir = CliRunner.run("run", "--output", dir.toString());
        assertThat(toDir.exit()).isEqualTo(2);
        assertThat(toDir.err()).contains(dir + ": is a directory");
    }

    @Test
    void csvForAGatewayScenarioIsOneMessage() {
        CliRunner.Outcome o = CliRunner.run("run", "../docs/examples/gateway-two-providers.yaml", "--format", "csv");
        assertThat(o.exit()).isEqualTo(2);
        assertThat(o.err().strip())
                .isEqualTo("outlier-lab: --format csv is not available for run of a profile: gateway scenario;"
                        + " allowed: text, json");
        assertThat(o.out()).isEmpty();
    }
}
