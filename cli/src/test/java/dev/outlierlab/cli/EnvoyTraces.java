package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Running Envoy's own outlier-detection unit tests ({@code test/common/upstream/outlier_detection_impl_test.cc},
 * checked against {@code source/common/upstream/outlier_detection_impl.cc} of v1.40.2), restated as outcome
 * traces in {@code src/test/resources/envoy-traces/<name>/}, and reading the result, for the
 * {@code EnvoyTrace*Test} classes. Each directory holds {@code trace.jsonl}, whose header names the Envoy test,
 * and {@code scenario.yaml} (sometimes a variant next to it). Every trace is run the way a user runs it,
 * {@code run SCENARIO --trace-in TRACE --format json}, and the figures Envoy's test asserts are checked as
 * literals: every event (time in ns, host, action, type, and for ejections the ejection time and multiplier), in
 * order, and every statistic (any stat not listed must be 0).
 *
 * <p>Where Envoy's test uses its mocked clock, the interval callbacks it fires become the lab's ticks at
 * {@code k * interval}; where it mocks the runtime, the same values are given as config fields. Envoy's tests
 * predate v1.40.2's cap ({@code 100 * (active + 1) / hosts <= max_ejection_percent}, no free first ejection), so
 * where they expect an ejection the scenario sets the smallest {@code max_ejection_percent} that admits it.
 */
final class EnvoyTraces {
    static final long MS = 1_000_000L;
    static final long S = 1_000_000_000L;
    private static final ObjectMapper JSON = new ObjectMapper();

    static final String C5XX = "CONSECUTIVE_5XX";
    static final String GATEWAY = "CONSECUTIVE_GATEWAY_FAILURE";
    static final String LOCAL = "CONSECUTIVE_LOCAL_ORIGIN_FAILURE";
    static final String SR = "SUCCESS_RATE";
    static final String SR_LOCAL = "SUCCESS_RATE_LOCAL_ORIGIN";
    static final String FP = "FAILURE_PERCENTAGE";
    static final String FP_LOCAL = "FAILURE_PERCENTAGE_LOCAL_ORIGIN";

    private EnvoyTraces() {}

    /** One event as asserted: ejection time and multiplier only for ejections (null otherwise). */
    record Ev(long timeNs, String host, String action, String type, Long ejectionTimeNs, Long multiplier) {
        @Override
        public String toString() {
            return timeNs + "ns " + host + " " + action + (type == null ? "" : " " + type)
                    + (ejectionTimeNs == null ? "" : " for " + ejectionTimeNs + "ns x" + multiplier);
        }
    }

    static Ev eject(long timeNs, String host, String type, long ejectionTimeNs, long multiplier) {
        return new Ev(timeNs, host, "eject", type, ejectionTimeNs, multiplier);
    }

    static Ev uneject(long timeNs, String host) {
        return new Ev(timeNs, host, "uneject", null, null, null);
    }

    static Ev unenforced(long timeNs, String host, String type) {
        return new Ev(timeNs, host, "unenforced", type, null, null);
    }

    static Ev overflow(long timeNs, String host, String type) {
        return new Ev(timeNs, host, "overflow", type, null, null);
    }

    static List<Ev> repeat(int times, Ev... group) {
        List<Ev> out = new ArrayList<>();
        for (int i = 0; i < times; i++) {
            Collections.addAll(out, group);
        }
        return out;
    }

    static void assertEvents(JsonNode result, Ev... expected) {
        assertEvents(result, List.of(expected));
    }

    static void assertEvents(JsonNode result, List<Ev> expected) {
        List<Ev> actual = new ArrayList<>();
        for (JsonNode e : result.get("events")) {
            boolean ejection = e.get("action").asText().equals("eject");
            actual.add(new Ev(
                    e.get("time_ns").asLong(),
                    e.get("host").asText(),
                    e.get("action").asText(),
                    e.get("type").isNull() ? null : e.get("type").asText(),
                    ejection ? e.get("ejection_time_ns").asLong() : null,
                    ejection ? e.get("multiplier").asLong() : null));
        }
        assertThat(actual).containsExactlyElementsOf(expected);
    }

    /** Name/value pairs of the statistics expected to be non-zero. */
    static Map<String, Long> stats(Object... pairs) {
        Map<String, Long> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put((String) pairs[i], ((Number) pairs[i + 1]).longValue());
        }
        return m;
    }

    /** Every statistic of the run: the listed ones with their values, every other one 0. */
    static void assertStats(JsonNode result, Map<String, Long> nonZero) {
        Map<String, Long> actual = new LinkedHashMap<>();
        result.get("stats")
                .fields()
                .forEachRemaining(f -> actual.put(f.getKey(), f.getValue().asLong()));
        assertThat(actual.keySet()).containsAll(nonZero.keySet());
        Map<String, Long> expected = new LinkedHashMap<>();
        for (String name : actual.keySet()) {
            expected.put(name, nonZero.getOrDefault(name, 0L));
        }
        assertThat(actual).containsExactlyEntriesOf(expected);
    }

    /** The one event with this action. */
    static JsonNode only(JsonNode result, String action) {
        List<JsonNode> matching = new ArrayList<>();
        result.get("events").forEach(e -> {
            if (e.get("action").asText().equals(action)) {
                matching.add(e);
            }
        });
        assertThat(matching).as("events with action " + action).hasSize(1);
        return matching.get(0);
    }

    static JsonNode run(String trace) {
        return run(trace, "scenario.yaml");
    }

    /** {@code run DIR/SCENARIO --trace-in DIR/trace.jsonl --format json}, which must succeed with nothing on stderr. */
    static JsonNode run(String trace, String scenarioFile) {
        Path dir = root().resolve(trace);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = Main.execute(
                new String[] {
                    "run",
                    dir.resolve(scenarioFile).toString(),
                    "--trace-in",
                    dir.resolve("trace.jsonl").toString(),
                    "--format",
                    "json"
                },
                new PrintWriter(out),
                new PrintWriter(err));
        assertThat(err.toString()).isEmpty();
        assertThat(status).isZero();
        try {
            return JSON.readTree(out.toString());
        } catch (IOException e) {
            throw new AssertionError("run printed something that is not JSON: " + out, e);
        }
    }

    static Path root() {
        try {
            return Path.of(EnvoyTraces.class.getResource("/envoy-traces").toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
