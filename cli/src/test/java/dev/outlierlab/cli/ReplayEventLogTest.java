package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code replay --event-log}: Envoy's outlier event log against the lab's decisions on the same access log. */
class ReplayEventLogTest {
    @TempDir
    Path dir;

    private static final String RPS = "traffic.rps=100";
    private static final String SHORT = "duration=160s";

    @Test
    void aRunsEventLogMatchesTheReplayOfItsAccessLogEventForEvent() {
        // success-rate ejections on ticks, Envoy's default access-log format (no cluster field)
        Path log = dir.resolve("access.log");
        Path events = dir.resolve("events.jsonl");
        String cap = "outlier_detection.max_ejection_percent=34";
        assertThat(CliRunner.run(
                                "run",
                                "--set",
                                RPS,
                                "--set",
                                SHORT,
                                "--set",
                                cap,
                                "--access-log",
                                log.toString(),
                                "--event-log",
                                events.toString())
                        .exit())
                .isZero();
        CliRunner.Outcome o = CliRunner.run(
                "replay", log.toString(), "--set", cap, "--event-log", events.toString(), "--format=json");
        assertThat(o.exit()).as(o.err()).isZero();
        JsonNode e = o.json().get("detectors").get(0).get("event_log");
        assertThat(e.get("cluster").asText()).isEqualTo("bookstore-search");
        assertThat(e.get("all_matched").asBoolean()).isTrue();
        assertThat(counts(e, "eject")).isEqualTo("3 3 3 0 0");
        assertThat(counts(e, "uneject")).isEqualTo("2 2 2 0 0");
        assertThat(e.get("eject").get("matched").get(1).get("envoy_time").asText())
                .isEqualTo("2026-01-01T00:01:20Z");
        assertThat(e.get("eject")
                        .get("matched")
                        .get(1)
                        .get("difference_seconds")
                        .asDouble())
                .isZero();
        assertThat(o.json().get("event_log").get("events").asInt()).isEqualTo(5);
    }

    @Test
    void consecutiveEjectionsAndUnenforcedDetectionsRoundTripThroughIstiosFormat() {
        // the Istio log names the cluster outbound|80||bookstore-search; run's event log names it the same
        Path log = dir.resolve("istio.log");
        Path events = dir.resolve("events.jsonl");
        String cap = "outlier_detection.max_ejection_percent=50";
        assertThat(CliRunner.run(
                                "run",
                                "--set",
                                RPS,
                                "--set",
                                SHORT,
                                "--set",
                                "faults[0].error_rate=100",
                                "--set",
                                cap,
                                "--access-log",
                                log.toString(),
                                "--access-log-format",
                                "istio",
                                "--event-log",
                                events.toString())
                        .exit())
                .isZero();
        CliRunner.Outcome o = CliRunner.run("replay", log.toString(), "--set", cap, "--event-log", events.toString());
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(o.out())
                .contains(
                        "event log    " + events + ": 8 lines, 8 events, 0 bad, 0 of other clusters",
                        "Envoy's event log (" + events + ", cluster outbound|80||bookstore-search) against the lab",
                        "the lab made every decision Envoy logged, and no other");
        assertThat(o.out())
                .containsPattern("ejections +3 +3 +3 +0 +0 +0 s")
                .containsPattern("not enforced +3 +3 +3 +0 +0 +0 s")
                .containsPattern("returns +2 +2 +2 +0 +0 +0 s");
    }

    /** 60 s of traffic to three hosts, five 503s of 10.0.0.1 at 5 s and of 10.0.0.2 at 20 s. */
    private Path handWrittenLog() throws IOException {
        String[] hosts = {"10.0.0.1:80", "10.0.0.2:80", "10.0.0.3:80"};
        List<long[]> rows = new ArrayList<>();
        for (int ms = 0; ms < 60_000; ms += 100) {
            rows.add(new long[] {ms, 200, (ms / 100) % 3});
        }
        for (int k = 0; k < 5; k++) {
            rows.add(new long[] {5_000 + k, 503, 0});
            rows.add(new long[] {20_000 + k, 503, 1});
        }
        rows.sort((a, b) -> Long.compare(a[0], b[0]));
        List<String> lines = new ArrayList<>();
        for (long[] r : rows) {
            lines.add(String.format(
                    Locale.ROOT,
                    "[2026-11-30T12:%02d:%02d.%03dZ] \"GET / HTTP/1.1\" %d - 0 0 1 - \"-\" "
                            + "\"t\" \"-\" \"search\" \"%s\"",
                    r[0] / 60_000,
                    r[0] / 1000 % 60,
                    r[0] % 1000,
                    r[1],
                    hosts[(int) r[2]]));
        }
        Path log = dir.resolve("search-access.log");
        Files.write(log, lines, StandardCharsets.UTF_8);
        return log;
    }

    private static String event(String at, String host, String action, String type, boolean enforced, String cluster) {
        return "{\"type\":\"" + type + "\",\"timestamp\":\"2026-11-30T" + at + "Z\",\"cluster_name\":\"" + cluster
                + "\",\"upstream_url\":\"" + host + "\",\"action\":\"" + action + "\",\"num_ejections\":1,\"enforced\":"
                + enforced + "}";
    }

    /** What Envoy logged: 10.0.0.1 as the lab has it; 10.0.0.2 ejected 15 s after the lab; 10.0.0.3 ejected. */
    private Path handWrittenEvents(String... extraLines) throws IOException {
        List<String> lines = new ArrayList<>(List.of(
                event("11:58:00", "10.0.0.1:80", "UNEJECT", "CONSECUTIVE_5XX", false, "search"),
                event("12:00:05.004", "10.0.0.1:80", "EJECT", "CONSECUTIVE_5XX", true, "search"),
                event("12:00:05.004", "10.0.0.1:80", "EJECT", "CONSECUTIVE_GATEWAY_FAILURE", false, "search"),
                event("12:00:20.004", "10.0.0.2:80", "EJECT", "CONSECUTIVE_GATEWAY_FAILURE", false, "search"),
                event("12:00:35", "10.0.0.2:80", "EJECT", "CONSECUTIVE_5XX", true, "search"),
                event("12:00:37.500", "10.0.0.1:80", "UNEJECT", "CONSECUTIVE_5XX", false, "search"),
                event("12:00:45", "10.0.0.3:80", "EJECT", "CONSECUTIVE_5XX", true, "search"),
                event("12:00:50", "10.0.1.1:80", "EJECT", "CONSECUTIVE_5XX", true, "billing")));
        lines.addAll(List.of(extraLines));
        Path events = dir.resolve("outlier-events-search.log");
        Files.write(events, lines, StandardCharsets.UTF_8);
        return events;
    }

    @Test
    void aHandWrittenEventLogHasMatchedMissedExtraAndOneOutsideTheReplayedSpan() throws IOException {
        Path log = handWrittenLog();
        Path events = handWrittenEvents();
        String[] args = {
            "replay",
            log.toString(),
            "--set",
            "outlier_detection.max_ejection_percent=100",
            "--event-log",
            events.toString(),
            "--cluster",
            "search"
        };
        CliRunner.Outcome json = CliRunner.run(concat(args, "--format=json"));
        assertThat(json.exit()).as(json.err()).isZero();
        JsonNode e = json.json().get("detectors").get(0).get("event_log");
        assertThat(e.get("origin").asText()).isEqualTo("2026-11-30T12:00:00.001Z");
        // Envoy, lab, matched, missed, extra
        assertThat(counts(e, "eject")).isEqualTo("3 2 1 2 1");
        assertThat(counts(e, "unenforced")).isEqualTo("2 2 2 0 0");
        assertThat(counts(e, "uneject")).isEqualTo("1 2 1 0 1");
        assertThat(e.get("outside_span").asInt()).isEqualTo(1);
        assertThat(e.get("all_matched").asBoolean()).isFalse();
        // the lab's return is on its tick at 40 s, Envoy's on its own 2.5 s earlier: the same decision
        assertThat(e.get("uneject")
                        .get("matched")
                        .get(0)
                        .get("difference_seconds")
                        .asDouble())
                .isEqualTo(2.501);
        // 10.0.0.2: the lab ejected at 20.005 s, Envoy at 35 s, more than the 10 s interval apart
        assertThat(e.get("eject").get("missed").get(0).get("envoy_time").asText())
                .isEqualTo("2026-11-30T12:00:35Z");
        assertThat(e.get("eject").get("missed").get(0).get("line").asInt()).isEqualTo(5);
        assertThat(e.get("eject").get("extra").get(0).get("lab_time").asText()).isEqualTo("2026-11-30T12:00:20.005Z");
        assertThat(e.get("eject").get("missed").get(1).get("host").asText()).isEqualTo("10.0.0.3:80");
        assertThat(json.json()
                        .get("event_log")
                        .get("other_clusters")
                        .get("billing")
                        .asInt())
                .isEqualTo(1);

        CliRunner.Outcome text = CliRunner.run(concat(args, "--events", "8"));
        assertThat(text.exit()).as("mismatches are the report, not an error").isZero();
        // docs/replay.md shows this section for the same files (docs/examples/replay/), checked by DocCommandsIT
        assertThat(text.out())
                .contains(
                        "8 lines, 8 events, 0 bad, 1 of other clusters (ignored: billing 1)",
                        "outside the replayed span (not judged): 1 Envoy event, at 2026-11-30T11:58:00Z",
                        "extra   2026-11-30T12:00:20.005Z         20.004 s  10.0.0.2:80      eject      consecutive_5xx",
                        "missed  2026-11-30T12:00:35Z             34.999 s  10.0.0.2:80      eject      consecutive_5xx"
                                + "                  line 5");
    }

    @Test
    void theClusterMustBeKnownAndOtherClustersAreCountedAndIgnored() throws IOException {
        Path log = handWrittenLog();
        Path events = handWrittenEvents();
        CliRunner.run("replay", log.toString(), "--event-log", events.toString())
                .assertRejected("--event-log " + events + ": the event log has events of 2 clusters (search, billing) "
                        + "and the access log does not name its cluster: choose one with --cluster NAME");
        CliRunner.Outcome billing = CliRunner.run(
                "replay",
                log.toString(),
                "--set",
                "outlier_detection.max_ejection_percent=100",
                "--event-log",
                events.toString(),
                "--cluster",
                "billing",
                "--format=json");
        assertThat(billing.exit()).as(billing.err()).isZero();
        JsonNode e = billing.json().get("detectors").get(0).get("event_log");
        assertThat(counts(e, "eject")).isEqualTo("1 2 0 1 2");
        assertThat(billing.json()
                        .get("event_log")
                        .get("other_clusters")
                        .get("search")
                        .asInt())
                .isEqualTo(7);
        // a rotated, gzipped event log reads the same
        Path gz = dir.resolve("outlier-events.log.1.gz");
        try (var out = new GZIPOutputStream(Files.newOutputStream(gz))) {
            out.write(Files.readAllBytes(events));
        }
        CliRunner.Outcome zipped = CliRunner.run(
                "replay",
                log.toString(),
                "--set",
                "outlier_detection.max_ejection_percent=100",
                "--event-log",
                gz.toString(),
                "--cluster",
                "search",
                "--format=json");
        assertThat(zipped.exit()).as(zipped.err()).isZero();
        assertThat(counts(zipped.json().get("detectors").get(0).get("event_log"), "eject"))
                .isEqualTo("3 2 1 2 1");
    }

    @Test
    void badEventLinesAreCountedWithTheFirstTenAndTheirLineNumbers() throws IOException {
        String[] garbage = new String[12];
        for (int i = 0; i < garbage.length; i++) {
            garbage[i] = i % 2 == 0 ? "garbage " + i : "{\"cluster_name\":\"search\",\"action\":\"EJECT\"}";
        }
        Path events = handWrittenEvents(garbage);
        CliRunner.Outcome o = CliRunner.run(
                "replay",
                handWrittenLog().toString(),
                "--set",
                "outlier_detection.max_ejection_percent=100",
                "--event-log",
                events.toString(),
                "--cluster",
                "search");
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(o.out())
                .contains(
                        "20 lines, 8 events, 12 bad",
                        "bad event    " + events + ":9: not JSON (Unrecognized token 'garbage'",
                        "bad event    " + events
                                + ":10: no upstream_url; Envoy writes cluster_name, upstream_url, action and "
                                + "timestamp on every OutlierDetectionEvent",
                        events + ":18: no upstream_url")
                .doesNotContain(events + ":19:");
        assertThat(o.out().lines().filter(l -> l.startsWith("  bad event")).count())
                .isEqualTo(10);
        assertThat(o.out()).containsPattern("ejections +3 +2 +1 +2 +1");
    }

    @Test
    void anUnreadableEventLogOrSeveralProxiesIsExit2() throws IOException {
        Path log = handWrittenLog();
        CliRunner.run(
                        "replay",
                        log.toString(),
                        "--event-log",
                        dir.resolve("none.log").toString())
                .assertRejected("none.log: no such file");
        CliRunner.run("replay", log.toString(), "--event-log", dir.toString())
                .assertRejected("--event-log " + dir + ": is a directory, expected Envoy's outlier event log");
        // the access log given as the event log by mistake: no line is an event
        CliRunner.run("replay", log.toString(), "--event-log", log.toString())
                .assertRejected(
                        "--event-log " + log
                                + ": none of its 610 lines is an outlier event (line 1: not JSON (Unexpected character ('-' (code 45)):");
        Path second = dir.resolve("second.log");
        Files.copy(log, second);
        CliRunner.run(
                        "replay",
                        log.toString(),
                        second.toString(),
                        "--event-log",
                        handWrittenEvents().toString(),
                        "--cluster",
                        "search")
                .assertRejected(
                        "the replay has 2 proxy instances (" + log + ", " + second + ")",
                        "Envoy's event log has no instance field");
    }

    /** "envoy lab matched missed extra" of one kind. */
    private static String counts(JsonNode e, String kind) {
        JsonNode k = e.get(kind);
        return k.get("envoy").asInt() + " " + k.get("lab").asInt() + " "
                + k.get("matched_count").asInt() + " " + k.get("missed_count").asInt() + " "
                + k.get("extra_count").asInt();
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
