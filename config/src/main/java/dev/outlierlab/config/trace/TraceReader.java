package dev.outlierlab.config.trace;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.io.BoundedLineReader;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.RequestResult;
import dev.outlierlab.sim.trace.TraceRecord;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * Reads an outcome trace: JSON lines such as {@code {"time": 12.5, "host": "host-1", "code": 503}} (or
 * {@code "time_ns"}), or with {@code "result"} one of {@code timeout}, {@code connect_failed},
 * {@code connect_success}, {@code connect_success_final}, {@code ext_failed}, {@code ext_success} in place of
 * (or as well as) {@code code}, the way Envoy's {@code putResult} takes them. Blank lines and lines starting
 * with {@code #} are skipped. Records are read lazily, so a trace of any length replays in constant memory;
 * every problem is reported with the file and line.
 */
public final class TraceReader {
    private static final ObjectReader JSON = new ObjectMapper()
            .reader()
            .with(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .with(StreamReadFeature.STRICT_DUPLICATE_DETECTION);
    /** Seconds beyond this many digits before the point cannot be a time in nanoseconds that fits a long. */
    private static final int MAX_WHOLE_SECOND_DIGITS = 12;

    private static final Set<String> FIELDS = Set.of("time", "time_ns", "host", "code", "result");

    private TraceReader() {}

    /** The host names of a trace, in order of first appearance (a first pass over the file). */
    public static List<String> hostNames(BoundedLineReader reader, String source) {
        Set<String> names = new LinkedHashSet<>();
        Iterator<Parsed> it = new LineIterator(reader, source);
        while (it.hasNext()) {
            names.add(it.next().host);
        }
        if (names.isEmpty()) {
            throw new InputException(source + ": the trace has no records");
        }
        return new ArrayList<>(names);
    }

    /** The records of a trace, host names resolved against {@code hostIndex}, checked to be in time order. */
    public static Iterator<TraceRecord> records(
            BoundedLineReader reader, String source, Map<String, Integer> hostIndex) {
        LineIterator lines = new LineIterator(reader, source);
        return new Iterator<>() {
            private long previous = Long.MIN_VALUE;

            @Override
            public boolean hasNext() {
                return lines.hasNext();
            }

            @Override
            public TraceRecord next() {
                Parsed p = lines.next();
                Integer host = hostIndex.get(p.host);
                if (host == null) {
                    throw new InputException(source + ":" + p.line + ": host: \"" + p.host
                            + "\" is not a host of the scenario's cluster; known hosts: " + known(hostIndex)
                            + " (or leave cluster.hosts out to take the hosts from the trace)");
                }
                if (p.timeNanos < previous) {
                    throw new InputException(source + ":" + p.line + ": time " + Durations.format(p.timeNanos)
                            + " is earlier than the record before (" + Durations.format(previous)
                            + "); records must be in time order");
                }
                previous = p.timeNanos;
                return new TraceRecord(p.timeNanos, host, p.code, p.result, p.line);
            }
        };
    }

    private static String known(Map<String, Integer> hostIndex) {
        List<String> names = new ArrayList<>(hostIndex.keySet());
        names.sort((a, b) -> Integer.compare(hostIndex.get(a), hostIndex.get(b)));
        return names.size() <= 6
                ? String.join(", ", names)
                : String.join(", ", names.subList(0, 5)) + ", ... (" + names.size() + " hosts)";
    }

    private record Parsed(long line, long timeNanos, String host, int code, RequestResult result) {}

    private static final class LineIterator implements Iterator<Parsed> {
        private final BoundedLineReader reader;
        private final String source;
        private long lineNumber;
        private Parsed next;

        LineIterator(BoundedLineReader reader, String source) {
            this.reader = reader;
            this.source = source;
        }

        @Override
        public boolean hasNext() {
            if (next != null) {
                return true;
            }
            String line;
            while ((line = reader.readLine()) != null) {
                lineNumber = reader.lineNumber();
                String trimmed = line.strip();
                if (!trimmed.isEmpty() && !trimmed.startsWith("#")) {
                    next = parse(trimmed);
                    return true;
                }
            }
            return false;
        }

        @Override
        public Parsed next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            Parsed p = next;
            next = null;
            return p;
        }

        private Parsed parse(String text) {
            String at = source + ":" + lineNumber + ": ";
            JsonNode node;
            try {
                node = JSON.readTree(text);
            } catch (JsonProcessingException e) {
                throw new InputException(at + problem(e));
            } catch (NumberFormatException e) {
                // a number Jackson cannot hold, such as an exponent of more than ten digits
                throw new InputException(at + "a number is out of range (" + e.getMessage() + ")");
            }
            if (node == null || !node.isObject()) {
                throw new InputException(at + "each line must be a JSON object such as "
                        + "{\"time\": 12.5, \"host\": \"host-1\", \"code\": 503}");
            }
            for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                if (!FIELDS.contains(name)) {
                    throw new InputException(
                            at + "unknown field '" + name + "'; allowed: time or time_ns, host, code, result");
                }
            }
            long time = time(node, at);
            JsonNode host = node.get("host");
            if (host == null || !host.isTextual() || host.asText().isBlank()) {
                throw new InputException(at + "host: expected the host's name as a string");
            }
            int code = -1;
            JsonNode codeNode = node.get("code");
            if (codeNode != null) {
                if (!codeNode.canConvertToInt()
                        || !codeNode.isIntegralNumber()
                        || codeNode.asInt() < 100
                        || codeNode.asInt() > 599) {
                    throw new InputException(
                            at + "code: " + codeNode + " is not allowed; expected an HTTP status from 100 to 599");
                }
                code = codeNode.asInt();
            }
            RequestResult result = null;
            JsonNode resultNode = node.get("result");
            if (resultNode != null) {
                result = resultNode.isTextual() ? RequestResult.byTraceName(resultNode.asText()) : null;
                if (result == null) {
                    throw new InputException(
                            at + "result: " + resultNode + " is not allowed; expected one of "
                                    + "timeout, connect_failed, connect_success, connect_success_final, ext_failed, ext_success");
                }
            }
            if (code < 0 && result == null) {
                throw new InputException(at + "expected \"code\" (an HTTP status) or \"result\" (e.g. \"timeout\")");
            }
            return new Parsed(lineNumber, time, host.asText(), code, result);
        }

        /** Jackson's message for a line, in the reader's words where it has them. */
        private static String problem(JsonProcessingException e) {
            String message = e.getOriginalMessage();
            if (message.startsWith("Duplicate field")) {
                return "a field appears twice (" + message + "); each field may appear once";
            }
            if (message.startsWith("Trailing token")) {
                return "more than one JSON value on the line; each line must be exactly one JSON object";
            }
            return "not a JSON object: " + message;
        }

        private static long time(JsonNode node, String at) {
            JsonNode seconds = node.get("time");
            JsonNode nanos = node.get("time_ns");
            if ((seconds == null) == (nanos == null)) {
                throw new InputException(
                        at + "expected exactly one of \"time\" (seconds) or \"time_ns\" (nanoseconds)");
            }
            if (nanos != null) {
                if (!nanos.isIntegralNumber() || !nanos.canConvertToLong() || nanos.asLong() < 0) {
                    throw new InputException(at + "time_ns: " + nanos
                            + " is not allowed; expected a whole number of nanoseconds, 0 or more");
                }
                return nanos.asLong();
            }
            if (!seconds.isNumber()) {
                throw new InputException(
                        at + "time: " + seconds + " is not allowed; expected seconds as a number, e.g. 12.5");
            }
            BigDecimal value = seconds.decimalValue();
            if ((long) value.precision() - value.scale() > MAX_WHOLE_SECOND_DIGITS) {
                throw new InputException(at + "time: " + seconds + " is not allowed; expected seconds from 0 to "
                        + Durations.MAX_NANOS / 1_000_000_000L + ", to at most nanosecond precision");
            }
            BigDecimal ns = value.movePointRight(9);
            if (ns.signum() < 0
                    || ns.stripTrailingZeros().scale() > 0
                    || ns.compareTo(BigDecimal.valueOf(Durations.MAX_NANOS)) > 0) {
                throw new InputException(at + "time: " + seconds
                        + " is not allowed; expected seconds from 0, to at most nanosecond precision");
            }
            return ns.longValueExact();
        }
    }
}
