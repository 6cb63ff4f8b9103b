package dev.outlierlab.config.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.envoy.EnvoyConfigReader;
import dev.outlierlab.config.io.BoundedLineReader;
import dev.outlierlab.config.istio.DestinationRuleReader;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.config.trace.TraceReader;
import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.sim.trace.TraceOrderException;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Seeded random mutations of valid inputs through every reader: scenarios, {@code --set}, traces, Envoy
 * configuration and Istio DestinationRules, 10,000 inputs each. Whatever the bytes, a reader either reads
 * them or throws the project's own input error (a message for the user); anything else (a
 * NullPointerException, a ClassCastException, an ArithmeticException, a StackOverflowError, an
 * OutOfMemoryError) is a failure that prints the seed and the input. No input may take more than a few
 * seconds: each is bounded, because every reader bounds its input.
 */
class ReaderFuzzTest {
    private static final int INPUTS = 10_000;
    private static final long MAX_NANOS_PER_INPUT = 5_000_000_000L;
    private static final String[] TOKENS = {
        "&a ",
        "*a",
        "<<: *a",
        "[",
        "]",
        "{",
        "}",
        ":",
        ": ",
        "- ",
        ",",
        "\"",
        "'",
        "\n",
        "\n  ",
        "#",
        "!!str ",
        "!!int ",
        "|",
        ">",
        "---\n",
        "...\n",
        "\t",
        "\u0000",
        "\u001b[2J",
        "\uFEFF",
        "1e2147483647",
        "18446744073709551616",
        "-1",
        "0",
        "0.0000000001",
        "1e-400",
        "9999999999999999999999s",
        "NaN",
        ".inf",
        "null",
        "~",
        "true",
        "yes",
        "0x7fffffff",
        "2147483648",
        "@type",
        "\\u0000",
        "ééé",
        "\ud800"
    };
    private static final String SCENARIO = """
            name: bookstore-search
            duration: 300s
            seed: 1
            cluster:
              hosts: 6
              panic_threshold: 50
            traffic:
              rps: 600
            faults:
              - hosts: 1
                start: 30s
                end: 240s
                error_rate: 33
                status: 503
            outlier_detection:
              consecutive_5xx: 5
              interval: 10s
              base_ejection_time: 30s
              max_ejection_percent: 10
            health_checks:
              interval: 5s
              unhealthy_threshold: 3
              healthy_threshold: 2
            """;
    private static final String[] SETS = {
        "outlier_detection.max_ejection_percent=34",
        "faults[0].error_rate=100",
        "cluster.hosts=[a, b, c]",
        "traffic.rps=1000",
        "duration=60s",
        "faults[1].hosts=2",
        "outlier_detection.interval=250ms",
        "health_checks.interval=5s"
    };
    private static final String TRACE = """
            {"time": 1, "host": "host-0", "code": 503}
            {"time": 2.5, "host": "host-1", "code": 200}
            # a comment
            {"time_ns": 3000000000, "host": "host-0", "result": "timeout"}
            {"time": 4, "host": "host-2", "result": "ext_failed", "code": 500}
            """;

    @Test
    void scenarios() {
        fuzz(11, List.of(SCENARIO), text -> ScenarioReader.readProfiled(text, "fuzz.yaml", List.of()));
    }

    @Test
    void setOverrides() {
        fuzz(12, List.of(SETS), text -> ScenarioReader.defaults(List.of(text)));
    }

    @Test
    void traces() {
        fuzz(13, List.of(TRACE), text -> {
            BoundedLineReader names = new BoundedLineReader(new StringReader(text), "fuzz.jsonl", 4096);
            List<String> hosts = TraceReader.hostNames(names, "fuzz.jsonl");
            Map<String, Integer> index = new HashMap<>();
            hosts.forEach(h -> index.put(h, index.size()));
            Iterator<?> records = TraceReader.records(
                    new BoundedLineReader(new StringReader(text), "fuzz.jsonl", 4096), "fuzz.jsonl", index);
            records.forEachRemaining(r -> {});
        });
    }

    @Test
    void envoyConfigurations() {
        fuzz(
                14,
                List.of(
                        resource("/envoy/static-cluster.yaml"),
                        resource("/envoy/bootstrap.yaml"),
                        resource("/envoy/cds-response.yaml"),
                        resource("/envoy/clusters-list.yaml"),
                        resource("/envoy/health-checked-cluster.yaml")),
                text -> EnvoyConfigReader.read(text, "fuzz.yaml"));
    }

    @Test
    void istioDestinationRules() {
        fuzz(
                15,
                List.of(
                        resource("/istio/checkout-full.yaml"),
                        resource("/istio/multi-port-subsets.yaml"),
                        resource("/istio/no-outlier.yaml")),
                text -> DestinationRuleReader.read(text, "fuzz.yaml", null));
    }

    private static void fuzz(long seed, List<String> valid, Consumer<String> reader) {
        // Load the reader's classes (protobuf descriptors, SnakeYAML, Jackson) before anything is timed: the first
        // read pays for them, and the bound below is about the inputs, not about class loading.
        for (String text : valid) {
            try {
                reader.accept(text);
            } catch (InputException | InvalidConfigException | TraceOrderException e) {
                // a seed may be refused alone (a --set of hosts that the default fault does not name)
            }
        }
        SplittableRandom random = new SplittableRandom(seed);
        int read = 0;
        int refused = 0;
        for (int i = 0; i < INPUTS; i++) {
            String input = mutate(valid.get(random.nextInt(valid.size())), random);
            long start = System.nanoTime();
            try {
                reader.accept(input);
                read++;
            } catch (InputException | InvalidConfigException | TraceOrderException e) {
                assertThat(e.getMessage()).as("a message for the user").isNotBlank();
                refused++;
            } catch (Throwable t) {
                fail("seed " + seed + ", input " + i + " escaped with " + t + ":\n" + input, t);
            }
            long took = System.nanoTime() - start;
            if (took > MAX_NANOS_PER_INPUT) {
                fail("seed " + seed + ", input " + i + " took " + took / 1_000_000 + " ms:\n" + input);
            }
        }
        assertThat(read + refused).isEqualTo(INPUTS);
        assertThat(refused).as("the mutations reach the readers' checks").isPositive();
        assertThat(read).as("some mutations stay valid").isPositive();
    }

    /** One to four edits: insert a token, delete, duplicate or swap a stretch, or cut the text short. */
    static String mutate(String text, SplittableRandom random) {
        StringBuilder s = new StringBuilder(text);
        int edits = 1 + random.nextInt(4);
        for (int e = 0; e < edits; e++) {
            int at = s.length() == 0 ? 0 : random.nextInt(s.length() + 1);
            switch (random.nextInt(6)) {
                case 0 -> s.insert(at, TOKENS[random.nextInt(TOKENS.length)]);
                case 1 -> s.delete(at, Math.min(s.length(), at + 1 + random.nextInt(12)));
                case 2 -> {
                    int end = Math.min(s.length(), at + 1 + random.nextInt(40));
                    s.insert(at, s.substring(at, end));
                }
                case 3 -> {
                    if (at < s.length()) {
                        s.setCharAt(at, (char) random.nextInt(0x80));
                    }
                }
                case 4 -> s.setLength(at);
                default -> {
                    String[] lines = s.toString().split("\n", -1);
                    if (lines.length > 2) {
                        int a = random.nextInt(lines.length);
                        int b = random.nextInt(lines.length);
                        String t = lines[a];
                        lines[a] = lines[b];
                        lines[b] = t;
                        s = new StringBuilder(String.join("\n", lines));
                    }
                }
            }
        }
        return s.toString();
    }

    private static String resource(String path) {
        try (InputStream in = ReaderFuzzTest.class.getResourceAsStream(path)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException | NullPointerException e) {
            throw new IllegalStateException("missing test resource " + path, e);
        }
    }
}
