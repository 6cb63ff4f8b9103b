package dev.outlierlab.flink;

import dev.outlierlab.accesslog.LogInput;
import dev.outlierlab.cli.ReplayCommand;
import dev.outlierlab.config.InputException;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * {@code replay kafka://BROKER/TOPIC}: the same detectors over a Kafka topic of access-log lines, as a Flink job in
 * streaming execution that prints every decision as it is made, one JSON line each (shadow mode: what these
 * settings would be doing to the fleet's traffic now, none of it enforced). The lines are read by
 * {@code replay}'s reader ({@link LiveRecords}), each detector (cluster and proxy instance) replayed by
 * {@link LiveDetectors}; with {@code until=end} the job reads what the topic holds and ends with a summary, and
 * the decisions are {@code replay}'s of the same lines.
 */
final class LiveReplayJob implements ReplayCommand.FleetEngine {
    /** How long the client waits for the topic's first records, to detect the format. */
    private static final Duration PROBE = Duration.ofSeconds(10);

    private final PrintWriter out;
    private final PrintWriter err;
    private final Parallelism bound;
    private KafkaTopic topic;

    /** Decisions go to {@code out} as they are made, the summary of a bounded read to {@code err}. */
    LiveReplayJob(PrintWriter out, PrintWriter err, Parallelism bound) {
        this.out = out;
        this.err = err;
        this.bound = bound;
    }

    @Override
    public List<LogInput> inputs(List<String> logs, boolean hostCountGiven) {
        if (logs.size() != 1) {
            throw new InputException(String.join(" ", logs) + ": a Kafka topic is replayed alone (one kafka://... and "
                    + "no files); its records' keys name the proxies");
        }
        topic = KafkaTopic.parse(logs.get(0));
        // refused before the broker is asked anything: the default scenario's hosts would be a silent guess
        if (!hostCountGiven) {
            throw new InputException("--hosts: required with a Kafka topic (" + KafkaTopic.SCHEME + topic.bootstrap()
                    + "/" + topic.topic() + "): a stream cannot count its hosts before their lines arrive, and each "
                    + "detector's ejection cap depends on them; give --hosts N with --istio or --envoy, or "
                    + "--set cluster.hosts=N (or cluster.hosts in --scenario)");
        }
        return List.of(
                new LogInput(logs.get(0), null, new BufferedInputStream(new ByteArrayInputStream(firstLines()))));
    }

    /** The topic's first lines (at most 64 records), for the format's detection when no --log-format is given. */
    private byte[] firstLines() {
        Properties p = consumerProperties();
        ByteArrayOutputStream lines = new ByteArrayOutputStream();
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<PartitionInfo> partitions = consumer.partitionsFor(topic.topic(), PROBE);
            if (partitions == null || partitions.isEmpty()) {
                throw new InputException(
                        KafkaTopic.SCHEME + topic.bootstrap() + "/" + topic.topic() + ": no such topic");
            }
            List<TopicPartition> assigned = partitions.stream()
                    .map(i -> new TopicPartition(i.topic(), i.partition()))
                    .toList();
            consumer.assign(assigned);
            consumer.seekToBeginning(assigned);
            long deadline = System.nanoTime() + PROBE.toNanos();
            int records = 0;
            while (records < 64 && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.value() != null && records++ < 64) {
                        lines.writeBytes(r.value());
                        lines.write('\n');
                    }
                }
                if (records > 0 && consumer.assignment().stream().allMatch(t -> atEnd(consumer, t))) {
                    break;
                }
            }
        } catch (KafkaException e) {
            throw new InputException(KafkaTopic.SCHEME + topic.bootstrap() + "/" + topic.topic() + ": cannot be read ("
                    + e.getMessage() + ")");
        }
        return lines.toByteArray();
    }

    private static boolean atEnd(KafkaConsumer<byte[], byte[]> consumer, TopicPartition t) {
        Long end = consumer.endOffsets(List.of(t)).get(t);
        return end != null && consumer.position(t) >= end;
    }

    private Properties consumerProperties() {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, topic.bootstrap());
        p.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        p.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "10000");
        return p;
    }

    @Override
    public String replay(ReplayCommand.FleetRequest request, ReplayCommand.FleetChecks checks) {
        if (request.second() != null) {
            throw new InputException("--compare: not with a Kafka topic; a live replay runs one set of settings");
        }
        if (request.json()) {
            throw new InputException("--format json: not with a Kafka topic; the decisions are JSON lines already");
        }
        FleetSettings settings = FleetSettings.of(request, null, false);
        ReadRecipe recipe = ReadRecipe.of(request);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setRuntimeMode(RuntimeExecutionMode.STREAMING);
        Integer parallelism = bound.check(request.parallelism());
        if (parallelism != null) {
            env.setParallelism(parallelism);
        }
        var source = KafkaSource.<LiveOutcome>builder()
                .setBootstrapServers(topic.bootstrap())
                .setTopics(topic.topic())
                .setGroupId(topic.group())
                .setStartingOffsets(topic.latest() ? OffsetsInitializer.latest() : OffsetsInitializer.earliest())
                .setDeserializer(new LiveRecords(recipe));
        if (topic.untilEnd()) {
            source.setBounded(OffsetsInitializer.latest());
        }
        var outcomes = env.fromSource(source.build(), WatermarkStrategy.noWatermarks(), "kafka " + topic.topic());
        var decisions = outcomes.filter(o -> o.kind == LiveOutcome.OUTCOME)
                .name("outcomes")
                .keyBy(o -> o.group)
                .process(new LiveDetectors(settings, recipe.reorderWindowNanos(), topic.startEpochNanos()))
                .name("live detectors");
        var bad = outcomes.filter(o -> o.kind == LiveOutcome.BAD)
                .name("bad lines")
                .map(o ->
                        LiveNote.of(LiveNote.BAD, "partition " + o.partition + " offset " + o.offset + ": " + o.why, 0))
                .returns(LiveNote.class);
        long decided = 0;
        long badLines = 0;
        long replayed = 0;
        int detectors = 0;
        String firstBad = null;
        try (CloseableIterator<LiveNote> it =
                decisions.union(bad).executeAndCollect("outlier-lab replay of kafka topic " + topic.topic())) {
            while (it.hasNext()) {
                LiveNote n = it.next();
                switch (n.kind) {
                    case LiveNote.DECISION -> {
                        out.println(n.text);
                        decided++;
                    }
                    case LiveNote.BAD -> {
                        badLines++;
                        if (firstBad == null) {
                            firstBad = n.text;
                        }
                    }
                    default -> {
                        detectors++;
                        replayed += n.outcomes;
                    }
                }
            }
        } catch (Exception e) {
            throw JobFailure.of(e);
        }
        err.printf(
                Locale.ROOT,
                "outlier-lab replay: %s: %,d outcomes, %d %s, %,d %s, %,d bad %s%s%n",
                topic.topic(),
                replayed,
                detectors,
                detectors == 1 ? "detector" : "detectors",
                decided,
                decided == 1 ? "decision" : "decisions",
                badLines,
                badLines == 1 ? "line" : "lines",
                firstBad == null ? "" : " (first: " + firstBad + ")");
        err.flush();
        return "";
    }
}
