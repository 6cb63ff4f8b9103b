package dev.outlierlab.flink;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;

/**
 * A real Kafka broker for the tests: Apache Kafka's own server ({@code kafka.Kafka}) in KRaft mode, broker and
 * controller in one JVM of its own on 127.0.0.1, with a written {@code server.properties} and its storage formatted
 * first ({@code kafka-storage format}, {@code kafka.tools.StorageTool}), as Kafka's quick start runs it.
 */
final class KafkaBroker implements AutoCloseable {
    /** The broker could not start here: the reason, for the test to be skipped with. */
    static final class Unavailable extends Exception {
        private static final long serialVersionUID = 1L;

        Unavailable(String reason) {
            super(reason);
        }
    }

    private final Process process;
    private final String bootstrap;
    private final Path log;

    private KafkaBroker(Process process, String bootstrap, Path log) {
        this.process = process;
        this.bootstrap = bootstrap;
        this.log = log;
    }

    String bootstrap() {
        return bootstrap;
    }

    static KafkaBroker start(Path dir) throws Unavailable, IOException, InterruptedException {
        int port = freePort();
        int controller = freePort();
        Path config = dir.resolve("server.properties");
        Files.writeString(
                config,
                String.join(
                        "\n",
                        "process.roles=broker,controller",
                        "node.id=1",
                        "controller.quorum.voters=1@127.0.0.1:" + controller,
                        "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controller,
                        "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
                        "controller.listener.names=CONTROLLER",
                        "inter.broker.listener.name=PLAINTEXT",
                        "listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
                        "log.dirs=" + dir.resolve("data"),
                        "num.partitions=1",
                        "auto.create.topics.enable=false",
                        "offsets.topic.replication.factor=1",
                        "offsets.topic.num.partitions=1",
                        "transaction.state.log.replication.factor=1",
                        "transaction.state.log.min.isr=1",
                        "share.coordinator.state.topic.replication.factor=1",
                        "share.coordinator.state.topic.min.isr=1",
                        "group.initial.rebalance.delay.ms=0",
                        ""),
                StandardCharsets.UTF_8);
        Path formatLog = dir.resolve("format.log");
        Process format = java(List.of(
                        "kafka.tools.StorageTool",
                        "format",
                        "-t",
                        Uuid.randomUuid().toString(),
                        "-c",
                        config.toString()))
                .redirectErrorStream(true)
                .redirectOutput(formatLog.toFile())
                .start();
        if (!format.waitFor(90, TimeUnit.SECONDS) || format.exitValue() != 0) {
            format.destroyForcibly();
            throw new Unavailable("kafka-storage format failed: " + tail(formatLog));
        }
        Path log = dir.resolve("broker.log");
        Process broker = java(List.of("kafka.Kafka", config.toString()))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        KafkaBroker b = new KafkaBroker(broker, "127.0.0.1:" + port, log);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (true) {
            if (!broker.isAlive()) {
                throw new Unavailable("the broker ended with status " + broker.exitValue() + ": " + tail(log));
            }
            try (Admin admin = b.admin()) {
                admin.describeCluster().nodes().get(5, TimeUnit.SECONDS);
                return b;
            } catch (Exception notYet) {
                if (System.nanoTime() > deadline) {
                    b.close();
                    throw new Unavailable("the broker did not answer within 120 s: " + tail(log));
                }
                Thread.sleep(500);
            }
        }
    }

    Admin admin() {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "10000");
        return Admin.create(p);
    }

    void createTopic(String name, int partitions) throws Exception {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1)))
                    .all()
                    .get(60, TimeUnit.SECONDS);
        }
    }

    private static ProcessBuilder java(List<String> args) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path")));
        command.addAll(args);
        return new ProcessBuilder(command);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static String tail(Path file) {
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            return String.join(
                    File.separator.equals("/") ? "\n" : "\r\n",
                    lines.subList(Math.max(0, lines.size() - 15), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
