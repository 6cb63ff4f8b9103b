package dev.outlierlab.flink;

import dev.outlierlab.accesslog.BadLines;
import dev.outlierlab.accesslog.LogEntry;
import dev.outlierlab.accesslog.LogInput;
import dev.outlierlab.accesslog.MergedLog;
import dev.outlierlab.accesslog.ReadSettings;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Reads each Kafka record's lines with {@code replay}'s own reader and its settings (the format, the cluster
 * filter, what counts as no upstream host or no response, what is bad): one outcome per line that reaches a
 * detector, one bad line per line that the format refuses. The proxy instance is the format's instance field or,
 * without one, the record's key (empty without a key: one proxy).
 */
final class LiveRecords implements KafkaRecordDeserializationSchema<LiveOutcome> {
    private static final long serialVersionUID = 1L;

    private final ReadRecipe recipe;
    private transient ReadSettings settings;

    LiveRecords(ReadRecipe recipe) {
        this.recipe = recipe;
    }

    @Override
    public void open(DeserializationSchema.InitializationContext context) {
        settings();
    }

    private ReadSettings settings() {
        if (settings == null) {
            ReadSettings s = recipe.settings();
            // no host list: the detector takes the log's hosts into its slots (--hosts N of them)
            settings = new ReadSettings(
                    s.format(),
                    s.reorderWindowNanos(),
                    s.cluster(),
                    recipe.format().instanceField() == null,
                    null,
                    s.maxLineBytes(),
                    s.maxNames());
        }
        return settings;
    }

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<LiveOutcome> out) {
        if (record.value() == null) {
            return;
        }
        int bound = settings().maxLineBytes();
        if (record.key() != null && record.key().length > bound) {
            // the key names the proxy; a name is bounded as a line is, the file readers' bound
            out.collect(LiveOutcome.bad(
                    record.partition(),
                    record.offset(),
                    "key of " + record.key().length + " bytes ('" + prefix(record.key()) + "...'): at most " + bound
                            + " bytes allowed (the proxy's name); the record's lines are not read"));
            return;
        }
        String key = record.key() == null ? "" : new String(record.key(), StandardCharsets.UTF_8);
        BadLines bad = new BadLines();
        try (MergedLog log = new MergedLog(
                List.of(new LogInput(
                        key, null, new BufferedInputStream(new ByteArrayInputStream(record.value()), 8192))),
                settings(),
                bad,
                null)) {
            for (LogEntry e = log.next(); e != null; e = log.next()) {
                LiveOutcome o = new LiveOutcome();
                o.kind = LiveOutcome.OUTCOME;
                o.cluster = e.cluster();
                o.instance = e.instance();
                o.group = OutcomeChunk.group(o.cluster, o.instance);
                o.host = e.host();
                o.endEpochNanos = e.endEpochNanos();
                o.code = e.code();
                o.outcome = e.outcome().ordinal();
                o.partition = record.partition();
                o.offset = record.offset();
                out.collect(o);
                log.recycle(e);
            }
        } catch (RuntimeException e) {
            out.collect(LiveOutcome.bad(record.partition(), record.offset(), e.getMessage()));
            return;
        }
        for (BadLines.Bad b : bad.first()) {
            // a line over the bound (LogLineReader's, as for files) is skipped to its end and named by its number
            out.collect(LiveOutcome.bad(
                    record.partition(),
                    record.offset(),
                    (key.isEmpty() ? "" : "key " + prefix(record.key()) + ", ") + "line " + b.line() + ": " + b.why()));
        }
    }

    /** The first bytes of {@code bytes} as text, for a message. */
    private static String prefix(byte[] bytes) {
        String s = new String(bytes, 0, Math.min(bytes.length, 40), StandardCharsets.UTF_8);
        return s.replaceAll("\\p{Cntrl}", "?");
    }

    @Override
    public TypeInformation<LiveOutcome> getProducedType() {
        return TypeInformation.of(LiveOutcome.class);
    }
}
