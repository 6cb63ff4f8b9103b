package dev.outlierlab.report.eventlog;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import com.google.protobuf.util.Timestamps;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.io.BoundedLineReader;
import dev.outlierlab.engine.envoy.EjectionType;
import io.envoyproxy.envoy.data.cluster.v3.Action;
import io.envoyproxy.envoy.data.cluster.v3.OutlierDetectionEvent;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads Envoy's outlier event log ({@code event_log_path}): one JSON line of
 * {@code envoy.data.cluster.v3.OutlierDetectionEvent} per ejection, unenforced detection and return, as
 * {@code EventLoggerImpl::logEject} and {@code logUneject} write it (v1.40, {@code outlier_detection_impl.cc}).
 * Each line is parsed with protobuf's JSON parser into Envoy's message (proto or camelCase field names; fields
 * newer than the bundled API, such as {@code eject_extension_event}, ignored), after a check with Jackson that
 * it is one JSON object carrying {@code cluster_name}, {@code upstream_url}, {@code action} and
 * {@code timestamp}, which Envoy always writes. A line that fails is a bad line: counted, the first
 * {@value #KEPT} kept with their line numbers and why, never fatal. Blank lines are skipped. Lines are read with
 * {@link BoundedLineReader}; more than {@value #MAX_EVENTS} events is refused (an event log has a few lines per
 * ejection, not per request).
 */
public final class EventLogReader {
    /** How many bad lines are kept for the report. */
    public static final int KEPT = 10;
    /** The most events read from one log. */
    public static final int MAX_EVENTS = 1_000_000;

    /** Strict as the trace reader: a duplicate field or a second value on the line is a bad line. */
    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private static final JsonFormat.Parser PARSER = JsonFormat.parser().ignoringUnknownFields();

    /** One kept bad line. */
    public record Bad(long line, String why) {}

    /**
     * What a read found.
     *
     * @param lines    non-blank lines read
     * @param bad      lines that are not an outlier event
     * @param firstBad the first {@value #KEPT} of them
     * @param clusters events per {@code cluster_name}, in order of first appearance
     */
    public record EventLog(
            String source,
            List<EnvoyEvent> events,
            long lines,
            long bad,
            List<Bad> firstBad,
            Map<String, Long> clusters) {
        public EventLog {
            events = List.copyOf(events);
            firstBad = List.copyOf(firstBad);
            clusters = Collections.unmodifiableMap(new LinkedHashMap<>(clusters));
        }

        /** The events of one cluster, in file order. */
        public List<EnvoyEvent> of(String cluster) {
            return events.stream().filter(e -> e.cluster().equals(cluster)).toList();
        }
    }

    private EventLogReader() {}

    /**
     * Reads the whole log.
     *
     * @throws InputException when the stream cannot be read, is not UTF-8, has a line over
     *                        {@link BoundedLineReader#MAX_LINE_CHARS}, or holds more than {@value #MAX_EVENTS} events
     */
    public static EventLog read(InputStream in, String source) {
        List<EnvoyEvent> events = new ArrayList<>();
        List<Bad> firstBad = new ArrayList<>();
        Map<String, Long> clusters = new LinkedHashMap<>();
        long lines = 0;
        long bad = 0;
        try (BoundedLineReader reader = BoundedLineReader.of(in, source)) {
            String text;
            while ((text = reader.readLine()) != null) {
                if (text.isBlank()) {
                    continue;
                }
                lines++;
                long number = reader.lineNumber();
                try {
                    EnvoyEvent e = parse(text, number);
                    if (events.size() >= MAX_EVENTS) {
                        throw new InputException(source + ":" + number + ": more than "
                                + String.format(Locale.ROOT, "%,d", MAX_EVENTS)
                                + " outlier events; is this an event log? "
                                + "Give the part of it that covers the access log");
                    }
                    events.add(e);
                    clusters.merge(e.cluster(), 1L, Long::sum);
                } catch (BadLine b) {
                    bad++;
                    if (firstBad.size() < KEPT) {
                        firstBad.add(new Bad(number, b.getMessage()));
                    }
                }
            }
        }
        return new EventLog(source, events, lines, bad, firstBad, clusters);
    }

    /** One line as an event. */
    static EnvoyEvent parse(String text, long line) throws BadLine {
        JsonNode node;
        try {
            node = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new BadLine("not JSON (" + e.getOriginalMessage() + ")");
        }
        if (node == null || !node.isObject()) {
            throw new BadLine("not a JSON object; expected one OutlierDetectionEvent per line");
        }
        for (String[] key : new String[][] {
            {"cluster_name", "clusterName"},
            {"upstream_url", "upstreamUrl"},
            {"action", "action"},
            {"timestamp", "timestamp"}
        }) {
            if (!node.has(key[0]) && !node.has(key[1])) {
                throw new BadLine("no " + key[0] + "; Envoy writes cluster_name, upstream_url, action and timestamp on "
                        + "every OutlierDetectionEvent");
            }
        }
        JsonNode typeNode = node.has("type") ? node.get("type") : null;
        OutlierDetectionEvent.Builder b = OutlierDetectionEvent.newBuilder();
        try {
            PARSER.merge(text, b);
        } catch (InvalidProtocolBufferException | RuntimeException e) {
            throw new BadLine("not an OutlierDetectionEvent (" + e.getMessage() + ")");
        }
        OutlierDetectionEvent ev = b.build();
        if (ev.getClusterName().isEmpty() || ev.getUpstreamUrl().isEmpty()) {
            throw new BadLine("empty " + (ev.getClusterName().isEmpty() ? "cluster_name" : "upstream_url"));
        }
        String action = node.path("action").asText();
        if (!Set.of("EJECT", "UNEJECT", "0", "1").contains(action)) {
            throw new BadLine("action " + node.path("action") + " is not allowed; expected EJECT or UNEJECT");
        }
        if (!ev.hasTimestamp()) {
            throw new BadLine("timestamp is null; Envoy writes the time of every event");
        }
        long nanos;
        try {
            nanos = Timestamps.toNanos(ev.getTimestamp());
        } catch (IllegalArgumentException | ArithmeticException e) {
            // before 1677 or after 2262 the nanoseconds do not fit a long
            throw new BadLine("timestamp " + Timestamps.toString(ev.getTimestamp()) + " is out of range; expected "
                    + "1677-09-21 to 2262-04-11");
        }
        String typeName = typeNode == null || typeNode.isNull() ? "" : typeNode.asText();
        if (typeName.equals("DEGRADED") && ev.getAction() == Action.EJECT) {
            // Envoy 1.38's detect_degraded_hosts logs a degradation as logEject(host, DEGRADED, true)
            throw new BadLine("type DEGRADED is a host marked degraded (detect_degraded_hosts, Envoy 1.38), which "
                    + "stays in rotation: not an ejection, not replayed");
        }
        EnvoyEvent.Kind kind;
        EjectionType type = null;
        if (ev.getAction() == Action.UNEJECT) {
            kind = EnvoyEvent.Kind.UNEJECT;
        } else {
            kind = ev.getEnforced() ? EnvoyEvent.Kind.EJECT : EnvoyEvent.Kind.UNENFORCED;
            type = ejectionType(typeName, ev);
        }
        return new EnvoyEvent(
                line,
                nanos,
                ev.getClusterName(),
                ev.getUpstreamUrl(),
                kind,
                type,
                typeName.isEmpty() ? ev.getType().name() : typeName,
                ev.getNumEjections());
    }

    /** The ejection's detector, or null when the line names one the bundled API does not know (e.g. EXTENSION). */
    private static EjectionType ejectionType(String typeName, OutlierDetectionEvent ev) {
        if (!typeName.isEmpty()
                && !typeName.equals(ev.getType().name())
                && !typeName.equals(Integer.toString(ev.getTypeValue()))) {
            return null;
        }
        try {
            return EjectionType.valueOf(ev.getType().name());
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** Why one line is not an event. */
    static final class BadLine extends Exception {
        BadLine(String why) {
            super(why, null, false, false);
        }
    }
}
