package dev.outlierlab.report.eventlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outlierlab.config.InputException;
import dev.outlierlab.engine.envoy.EjectionType;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Envoy's outlier event log in: the lines Envoy writes, the spellings its JSON allows, and bad lines. */
class EventLogReaderTest {
    private static EventLogReader.EventLog read(String text) {
        return EventLogReader.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), "events.log");
    }

    @Test
    void readsTheLinesEnvoyWritesInFieldNumberOrder() {
        // as EventLoggerImpl prints them (fidelity case R4), timestamps with and without a fraction
        EventLogReader.EventLog log = read("""
                {"type":"CONSECUTIVE_5XX","timestamp":"2026-11-30T12:00:00Z","cluster_name":"r4","upstream_url":"10.0.0.1:8080","action":"EJECT","num_ejections":1,"enforced":true,"eject_consecutive_event":{}}
                {"type":"CONSECUTIVE_5XX","timestamp":"2026-11-30T12:00:30.250Z","secs_since_last_action":"30","cluster_name":"r4","upstream_url":"10.0.0.1:8080","action":"UNEJECT","num_ejections":1,"enforced":false}

                {"type":"SUCCESS_RATE","timestamp":"2026-11-30T12:00:40Z","cluster_name":"r4","upstream_url":"10.0.0.2:8080","action":"EJECT","num_ejections":2,"enforced":false,"eject_success_rate_event":{"host_success_rate":67,"cluster_average_success_rate":94,"cluster_success_rate_ejection_threshold":71}}
                """);
        assertThat(log.lines()).isEqualTo(3);
        assertThat(log.bad()).isZero();
        assertThat(log.events()).hasSize(3);
        EnvoyEvent eject = log.events().get(0);
        assertThat(eject)
                .isEqualTo(new EnvoyEvent(
                        1,
                        1_796_040_000L * 1_000_000_000L,
                        "r4",
                        "10.0.0.1:8080",
                        EnvoyEvent.Kind.EJECT,
                        EjectionType.CONSECUTIVE_5XX,
                        "CONSECUTIVE_5XX",
                        1));
        EnvoyEvent back = log.events().get(1);
        assertThat(back.kind()).isEqualTo(EnvoyEvent.Kind.UNEJECT);
        assertThat(back.type()).isNull();
        assertThat(back.epochNanos() - eject.epochNanos()).isEqualTo(30_250_000_000L);
        assertThat(back.line()).isEqualTo(2);
        EnvoyEvent unenforced = log.events().get(2);
        assertThat(unenforced.line()).isEqualTo(4);
        assertThat(unenforced.kind()).isEqualTo(EnvoyEvent.Kind.UNENFORCED);
        assertThat(unenforced.type()).isEqualTo(EjectionType.SUCCESS_RATE);
        assertThat(log.clusters()).containsExactly(Map.entry("r4", 3L));
    }

    @Test
    void takesCamelCaseNamesNewerFieldsAndTypesTheApiDoesNotKnow() {
        EventLogReader.EventLog log = read("""
                {"clusterName":"c","upstreamUrl":"h:1","action":"EJECT","enforced":true,"type":"FAILURE_PERCENTAGE_LOCAL_ORIGIN","timestamp":"2026-01-01T00:00:00+01:00","numEjections":3}
                {"cluster_name":"c","upstream_url":"h:1","action":"EJECT","enforced":true,"type":"EXTENSION","timestamp":"2026-01-01T00:00:00Z","eject_extension_event":{"monitor_name":"m"}}
                """);
        assertThat(log.bad()).as(log.firstBad().toString()).isZero();
        assertThat(log.events().get(0).type()).isEqualTo(EjectionType.FAILURE_PERCENTAGE_LOCAL_ORIGIN);
        assertThat(log.events().get(0).numEjections()).isEqualTo(3);
        // the offset is applied: 23:00 UTC the day before
        assertThat(log.events().get(1).epochNanos() - log.events().get(0).epochNanos())
                .isEqualTo(3_600_000_000_000L);
        assertThat(log.events().get(1).type()).isNull();
        assertThat(log.events().get(1).typeName()).isEqualTo("EXTENSION");
    }

    @Test
    void aDegradationLineOfOnePointThirtyEightIsNotTakenForAnEjection() {
        // setHostDegradedMainThread logs logEject(host, DEGRADED, true): the host stayed in rotation
        EventLogReader.EventLog log = read("""
                {"type":"DEGRADED","timestamp":"2026-01-01T00:00:30Z","cluster_name":"c","upstream_url":"h:1","action":"EJECT","num_ejections":0,"enforced":true,"eject_consecutive_event":{}}
                {"type":"CONSECUTIVE_5XX","timestamp":"2026-01-01T00:01:00Z","cluster_name":"c","upstream_url":"h:1","action":"UNEJECT","num_ejections":0,"enforced":false}
                """);
        assertThat(log.events()).hasSize(1);
        assertThat(log.events().get(0).kind()).isEqualTo(EnvoyEvent.Kind.UNEJECT);
        assertThat(log.bad()).isEqualTo(1);
        assertThat(log.firstBad().get(0).why()).contains("type DEGRADED", "not an ejection");
    }

    @Test
    void badLinesAreCountedAndTheFirstTenKeptWithTheirLineNumbers() {
        String good =
                "{\"cluster_name\":\"c\",\"upstream_url\":\"h:1\",\"action\":\"UNEJECT\",\"timestamp\":\"2026-01-01T00:00:00Z\"}";
        List<String> lines = new ArrayList<>(List.of(
                good,
                "not json at all",
                "[1, 2]",
                "{\"upstream_url\":\"h:1\",\"action\":\"EJECT\",\"timestamp\":\"2026-01-01T00:00:00Z\"}",
                "{\"cluster_name\":\"c\",\"upstream_url\":\"h:1\",\"action\":\"LEAVE\",\"timestamp\":\"2026-01-01T00:00:00Z\"}",
                "{\"cluster_name\":\"c\",\"upstream_url\":\"h:1\",\"action\":\"EJECT\",\"timestamp\":\"yesterday\"}",
                "{\"cluster_name\":\"c\",\"upstream_url\":\"h:1\",\"action\":\"EJECT\",\"timestamp\":\"2026-01-01T00:00:00Z\",\"num_ejections\":-1}",
                "{\"cluster_name\":\"\",\"upstream_url\":\"h:1\",\"action\":\"EJECT\",\"timestamp\":\"2026-01-01T00:00:00Z\"}",
                "{\"cluster_name\":\"c\",\"upstream_url\":\"h:1\",\"action\":\"EJECT\",\"timestamp\":null}"));
        for (int i = 0; i < 5; i++) {
            lines.add("garbage " + i);
        }
        EventLogReader.EventLog log = read(String.join("\n", lines) + "\n");
        assertThat(log.lines()).isEqualTo(14);
        assertThat(log.events()).hasSize(1);
        assertThat(log.bad()).isEqualTo(13);
        assertThat(log.firstBad()).hasSize(10);
        assertThat(log.firstBad().get(0))
                .isEqualTo(
                        new EventLogReader.Bad(
                                2,
                                "not JSON (Unrecognized token 'not': was "
                                        + "expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false'))"));
        assertThat(log.firstBad().get(1).why())
                .isEqualTo("not a JSON object; expected one OutlierDetectionEvent per line");
        assertThat(log.firstBad().get(2).why()).startsWith("no cluster_name;");
        assertThat(log.firstBad().get(3).why()).isEqualTo("action \"LEAVE\" is not allowed; expected EJECT or UNEJECT");
        assertThat(log.firstBad().get(4).why())
                .startsWith("not an OutlierDetectionEvent (")
                .contains("yesterday");
        assertThat(log.firstBad().get(5).why()).startsWith("not an OutlierDetectionEvent (");
        assertThat(log.firstBad().get(6).why()).isEqualTo("empty cluster_name");
        assertThat(log.firstBad().get(7).why()).isEqualTo("timestamp is null; Envoy writes the time of every event");
        assertThat(log.firstBad().get(9).line()).isEqualTo(11);
    }

    @Test
    void aDuplicateFieldOrASecondValueOnTheLineIsABadLineAsInTraces() {
        String dup = "{\"cluster_name\":\"a\",\"cluster_name\":\"b\",\"upstream_url\":\"h:1\",\"action\":\"EJECT\","
                + "\"timestamp\":\"2026-01-01T00:00:00Z\"}";
        String good =
                "{\"cluster_name\":\"c\",\"upstream_url\":\"h:1\",\"action\":\"UNEJECT\",\"timestamp\":\"2026-01-01T00:00:00Z\"}";
        EventLogReader.EventLog log = read(dup + "\n" + good + " " + good + "\n" + good + "\n");
        assertThat(log.events()).hasSize(1);
        assertThat(log.bad()).isEqualTo(2);
        assertThat(log.firstBad().get(0).why()).startsWith("not JSON (Duplicate field 'cluster_name'");
        assertThat(log.firstBad().get(1).why()).startsWith("not JSON (Trailing token");
    }

    @Test
    void namesFromTheFileArePrintedWithTheirControlCharactersEscaped() {
        String line = "{\"cluster_name\":\"a\\u001b[31mX\",\"upstream_url\":\"h\\u001b[2J\",\"action\":\"EJECT\","
                + "\"timestamp\":\"2026-01-01T00:00:00Z\",\"type\":\"CONSECUTIVE_5XX\"}";
        EventLogReader.EventLog log = read(line + "\n");
        String head = EventLogText.head(log, List.of());
        assertThat(head)
                .contains("1 of other clusters (ignored: a\\u001b[31mX 1)")
                .doesNotContain("\u001b");
    }

    @Test
    void anOverlongLineOrNonUtf8IsOneMessage() {
        String longLine = "{\"x\":\"" + "a".repeat(300_000) + "\"}\n";
        assertThatThrownBy(() -> read(longLine))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("events.log:1: line 1 is longer than 262,144 characters");
        assertThatThrownBy(() ->
                        EventLogReader.read(new ByteArrayInputStream(new byte[] {'{', (byte) 0xff, '}'}), "events.log"))
                .isInstanceOf(InputException.class)
                .hasMessage("events.log:1: not UTF-8 text");
    }
}
