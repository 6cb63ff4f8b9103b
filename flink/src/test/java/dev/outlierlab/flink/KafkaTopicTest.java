package dev.outlierlab.flink;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A Kafka topic named as a log: its parameters read, and a wrong one refused before anything connects (exit 2). */
class KafkaTopicTest {
    @Test
    void readsTheBrokersTheTopicAndItsParameters() {
        KafkaTopic t = KafkaTopic.parse(
                "kafka://k0:9092,k1:9092/mesh-logs?from=latest&until=end&start=2026-03-02T10:00:00.004Z&group=shadow");
        assertThat(t.bootstrap()).isEqualTo("k0:9092,k1:9092");
        assertThat(t.topic()).isEqualTo("mesh-logs");
        assertThat(t.latest()).isTrue();
        assertThat(t.untilEnd()).isTrue();
        assertThat(t.startEpochNanos()).isEqualTo(1_772_445_600_004_000_000L);
        assertThat(t.group()).isEqualTo("shadow");
        KafkaTopic plain = KafkaTopic.parse("kafka://127.0.0.1:9092/logs");
        assertThat(plain.latest()).isFalse();
        assertThat(plain.untilEnd()).isFalse();
        assertThat(plain.startEpochNanos()).isNull();
        assertThat(plain.group()).isEqualTo("outlier-lab");
    }

    @Test
    void aWrongTopicOrParameterIsOneMessageAndExitTwo() {
        String[][] cases = {
            {"kafka://127.0.0.1:9092/logs?untl=end", "unknown parameter 'untl'; allowed: from, until, start, group"},
            {"kafka://127.0.0.1:9092/logs?from=newest", "from=newest: allowed: earliest, latest"},
            {"kafka://127.0.0.1:9092/logs?start=10:00", "start=10:00: expected an instant in UTC"},
            {"kafka://127.0.0.1:9092", "expected kafka://BROKER:PORT"},
        };
        for (String[] c : cases) {
            Runs run = Runs.flink(List.of("replay", c[0], "--log-format", "envoy"), 1);
            assertThat(run.status()).as(c[0]).isEqualTo(2);
            assertThat(run.err())
                    .as(c[0])
                    .startsWith("outlier-lab: " + c[0] + ": ")
                    .contains(c[1]);
            assertThat(run.err().lines().count()).as(c[0]).isEqualTo(1);
            assertThat(run.out()).isEmpty();
        }
    }
}
