package dev.outlierlab.flink;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.outlierlab.accesslog.BadLines;
import dev.outlierlab.accesslog.KnownFormats;
import dev.outlierlab.accesslog.LogEntry;
import dev.outlierlab.accesslog.LogInput;
import dev.outlierlab.accesslog.MergedLog;
import dev.outlierlab.accesslog.ReadSettings;
import dev.outlierlab.accesslog.TextLogFormat;
import dev.outlierlab.report.ResultJson;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code replay kafka://BROKER/TOPIC} through a real broker (Apache Kafka's server in KRaft mode, a JVM of its
 * own): three sidecars' Istio access logs produced to a topic of two partitions, each record keyed by its proxy,
 * replayed by the streaming job on Flink's MiniCluster, give the decisions local {@code replay} gives for the
 * same files: the same hosts, actions and detectors at the same nanoseconds, detector by detector.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class LiveReplayTest {
    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .build());

    private static final String MESH = "../docs/examples/replay/mesh/";
    private static final List<String> PODS =
            List.of("cart-5c6b4-klmno", "checkout-7d9f8-abcde", "checkout-7d9f8-fghij");

    @TempDir
    static Path dir;

    private static KafkaBroker broker;
    private static String unavailable;

    @BeforeAll
    static void startBroker() throws Exception {
        try {
            broker = KafkaBroker.start(dir);
        } catch (KafkaBroker.Unavailable e) {
            unavailable = e.getMessage();
        }
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void aTopicOfThreeSidecarsLogsGivesReplaysDecisions() throws Exception {
        Assumptions.assumeTrue(broker != null, () -> "no Kafka broker: " + unavailable);
        List<String> logs = PODS.stream().map(p -> MESH + p + ".log").toList();
        broker.createTopic("mesh", 2);
        try (KafkaProducer<String, String> producer = producer()) {
            for (String log : logs) {
                for (String line : Files.readAllLines(Path.of(log), StandardCharsets.UTF_8)) {
                    producer.send(new ProducerRecord<>("mesh", log, line));
                }
            }
            producer.flush();
        }
        List<String> settings = List.of(
                "--istio",
                "../docs/examples/payments-destination-rule.yaml",
                "--cluster",
                "outbound|8080|v2|payments.shop.svc.cluster.local");

        List<String> local = new ArrayList<>(List.of("replay"));
        local.addAll(logs);
        local.addAll(settings);
        local.addAll(List.of("--format", "json", "--events", "100000"));
        Runs replay = Runs.local(local);
        assertThat(replay.status()).as(replay.err()).isZero();
        long origin = origin(logs);
        Map<String, List<String>> expected = new TreeMap<>();
        for (JsonNode d : ResultJson.mapper().readTree(replay.out()).get("detectors")) {
            List<String> decisions = expected.computeIfAbsent(
                    d.get("cluster").asText() + " " + d.get("instance").asText(), k -> new ArrayList<>());
            for (JsonNode e : d.get("predicted").get("events")) {
                decisions.add(decision(
                        origin + e.get("time_ns").asLong(),
                        e.get("host").asText(),
                        e.get("action").asText(),
                        e.get("type").asText()));
            }
        }

        List<String> live = new ArrayList<>(
                List.of("replay", "kafka://" + broker.bootstrap() + "/mesh?until=end&start=" + instant(origin)));
        live.addAll(settings);
        live.addAll(List.of("--log-format", "istio", "--hosts", "4"));
        Runs stream = Runs.flink(live, 2);
        assertThat(stream.status()).as(stream.err()).isZero();
        Map<String, List<String>> decided = new TreeMap<>();
        assertThat(stream.out()).as(stream.err()).isNotBlank();
        for (String line : stream.out().split("\n")) {
            JsonNode e = ResultJson.mapper().readTree(line);
            decided.computeIfAbsent(
                            e.get("cluster").asText() + " " + e.get("instance").asText(), k -> new ArrayList<>())
                    .add(decision(
                            e.get("time_ns").asLong(),
                            e.get("host").asText(),
                            e.get("action").asText(),
                            e.get("type").asText()));
        }
        assertThat(expected.values().stream().mapToInt(List::size).sum()).isGreaterThan(6);
        assertThat(decided).isEqualTo(expected);
        assertThat(stream.err()).contains("mesh: 1,080 outcomes, 3 detectors, ").contains(", 0 bad lines");
    }

    private static String decision(long nanos, String host, String action, String type) {
        return instant(nanos) + " " + host + " " + action + " " + type;
    }

    private static String instant(long nanos) {
        return Instant.ofEpochSecond(0, nanos).toString();
    }

    /** Replay's time zero: the earliest outcome of the logs, as replay's own reader finds it. */
    private static long origin(List<String> logs) throws Exception {
        List<LogInput> inputs = new ArrayList<>();
        for (String log : logs) {
            inputs.add(LogInput.of(log, System.in));
        }
        ReadSettings settings = ReadSettings.of(TextLogFormat.compile("istio", KnownFormats.ISTIO, null));
        try (MergedLog merged = new MergedLog(inputs, settings, new BadLines(), null)) {
            LogEntry first = merged.next();
            return first.endEpochNanos();
        }
    }

    private static KafkaProducer<String, String> producer() {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        return new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    }
}
