package dev.outlierlab.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
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

    /**
     * A stream's hosts are not known before its lines arrive: without a host count the replay is refused before the
     * broker is asked anything (nothing connects to the listening port), and with one it goes on to the broker.
     */
    @Test
    void aTopicWithoutAHostCountIsRefusedBeforeTheBrokerIsAsked() throws Exception {
        try (ServerSocket broker = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            broker.setSoTimeout(300);
            String topic = "kafka://127.0.0.1:" + broker.getLocalPort() + "/logs?until=end";
            Runs run = Runs.flink(List.of("replay", topic, "--log-format", "envoy"), 1);
            assertThat(run.status()).as(run.err()).isEqualTo(2);
            assertThat(run.err())
                    .isEqualTo("outlier-lab: --hosts: required with a Kafka topic (kafka://127.0.0.1:"
                            + broker.getLocalPort()
                            + "/logs): a stream cannot count its hosts before their lines arrive, and each detector's"
                            + " ejection cap depends on them; give --hosts N with --istio or --envoy, or --set"
                            + " cluster.hosts=N (or cluster.hosts in --scenario)\n");
            assertThat(run.out()).isEmpty();
            assertThatThrownBy(broker::accept).isInstanceOf(SocketTimeoutException.class);

            // the same topic with cluster.hosts set: past the check, the client asks the broker for the topic
            broker.setSoTimeout(30_000);
            AtomicReference<Runs> past = new AtomicReference<>();
            Thread given = new Thread(() -> past.set(
                    Runs.flink(List.of("replay", topic, "--log-format", "envoy", "--set", "cluster.hosts=4"), 1)));
            given.setDaemon(true);
            given.start();
            try (Socket asked = broker.accept()) {
                assertThat(asked.isConnected()).isTrue();
            }
            given.join(120_000);
            // no Kafka broker answers on that port: the topic cannot be read, one message
            assertThat(past.get().status()).as(past.get().err()).isEqualTo(2);
            assertThat(past.get().err())
                    .startsWith("outlier-lab: kafka://127.0.0.1:")
                    .doesNotContain("--hosts");
        }
    }
}
