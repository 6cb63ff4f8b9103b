package dev.outlierlab.flink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.accesslog.KnownFormats;
import dev.outlierlab.accesslog.LogLineReader;
import dev.outlierlab.accesslog.ReadSettings;
import dev.outlierlab.cli.LogFormatOptions;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * A Kafka record is bounded as a file's line is: a line longer than the file readers' bound is one bad line named
 * by the record's key and its line number, the record's other lines still read; a key (the proxy's name) longer
 * than that bound makes the record one bad record, with the key's length and first bytes.
 */
class LiveRecordsTest {
    private static final String LINE =
            "[2026-11-30T00:00:20.001Z] \"GET /api HTTP/1.1\" 503 UF 0 120 1 - \"-\" \"t\" \"-\""
                    + " \"api\" \"10.0.0.7:8080\"";

    @Test
    void aLineOrAKeyOverTheFileReadersBoundIsOneBadLineWithWhatIsAllowed() {
        int bound = LogLineReader.DEFAULT_MAX_LINE_BYTES;
        LiveRecords records = new LiveRecords(new ReadRecipe(
                new LogFormatOptions.Recipe("envoy", KnownFormats.TEXT.get("envoy"), null, null),
                0,
                null,
                true,
                null,
                bound,
                ReadSettings.DEFAULT_MAX_NAMES,
                Long.MAX_VALUE,
                Double.NaN));

        String huge = "x".repeat(bound + 1);
        List<LiveOutcome> out = read(records, "cart-1", LINE + "\n" + huge + "\n" + LINE + "\n");
        assertThat(out)
                .extracting(o -> o.kind)
                .containsExactly(LiveOutcome.OUTCOME, LiveOutcome.OUTCOME, LiveOutcome.BAD);
        assertThat(out.get(0).instance).isEqualTo("cart-1");
        assertThat(out.get(0).host).isEqualTo("10.0.0.7:8080");
        assertThat(out.get(2).why).isEqualTo("key cart-1, line 2: longer than " + bound + " bytes");
        assertThat(out.get(2).offset).isEqualTo(7);

        List<LiveOutcome> longKey = read(records, "k".repeat(bound + 5), LINE + "\n");
        assertThat(longKey).hasSize(1);
        assertThat(longKey.get(0).kind).isEqualTo(LiveOutcome.BAD);
        assertThat(longKey.get(0).why)
                .isEqualTo("key of " + (bound + 5) + " bytes ('" + "k".repeat(40) + "...'): at most " + bound
                        + " bytes allowed (the proxy's name); the record's lines are not read");
    }

    private static List<LiveOutcome> read(LiveRecords records, String key, String value) {
        List<LiveOutcome> out = new ArrayList<>();
        records.deserialize(
                new ConsumerRecord<>(
                        "mesh", 1, 7L, key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8)),
                new Collector<>() {
                    @Override
                    public void collect(LiveOutcome o) {
                        out.add(o);
                    }

                    @Override
                    public void close() {}
                });
        return out;
    }
}
