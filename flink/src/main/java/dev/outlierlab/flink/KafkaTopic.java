package dev.outlierlab.flink;

import dev.outlierlab.config.InputException;
import java.io.Serializable;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * A Kafka topic of access-log lines named as a log: {@code kafka://BROKER[,BROKER...]/TOPIC[?PARAM=VALUE&...]}.
 * Each record is one line (or several, one per line), its key the proxy instance that wrote it (a pod's name, as
 * a log shipper sets it) unless the format has an instance field. The parameters:
 *
 * <ul>
 *   <li>{@code from=earliest} (the default) or {@code latest}: where a reader without committed offsets starts;
 *   <li>{@code until=end}: read only what the topic holds when the job starts, then end with the summary (a
 *       bounded read, as {@code replay} of the same lines); without it the job runs until it is cancelled;
 *   <li>{@code start=INSTANT} (UTC, {@code 2026-03-02T10:00:00Z}): every detector's time zero, where its interval
 *       timer starts; by default each detector's first outcome ({@code replay} starts every detector at the logs'
 *       first outcome, so giving that instant gives replay's decisions for a fleet);
 *   <li>{@code group=ID}: the consumer group (default {@code outlier-lab}).
 * </ul>
 */
record KafkaTopic(String bootstrap, String topic, boolean latest, boolean untilEnd, Long startEpochNanos, String group)
        implements Serializable {
    static final String SCHEME = "kafka://";
    private static final Set<String> PARAMS = Set.of("from", "until", "start", "group");

    static boolean names(String log) {
        return log.startsWith(SCHEME);
    }

    static KafkaTopic parse(String log) {
        String rest = log.substring(SCHEME.length());
        String query = "";
        int q = rest.indexOf('?');
        if (q >= 0) {
            query = rest.substring(q + 1);
            rest = rest.substring(0, q);
        }
        int slash = rest.indexOf('/');
        if (slash <= 0 || slash == rest.length() - 1 || rest.indexOf('/', slash + 1) >= 0) {
            throw new InputException(log + ": expected kafka://BROKER:PORT[,BROKER:PORT...]/TOPIC[?from=earliest|latest"
                    + "&until=end&start=INSTANT&group=ID]");
        }
        Map<String, String> params = new LinkedHashMap<>();
        for (String p : query.isEmpty() ? new String[0] : query.split("&")) {
            int eq = p.indexOf('=');
            String key = eq < 0 ? p : p.substring(0, eq);
            String value = eq < 0 ? "" : URLDecoder.decode(p.substring(eq + 1), StandardCharsets.UTF_8);
            if (!PARAMS.contains(key)) {
                throw new InputException(log + ": unknown parameter '" + key + "'; allowed: from, until, start, group");
            }
            params.put(key, value);
        }
        String from = params.getOrDefault("from", "earliest");
        if (!from.equals("earliest") && !from.equals("latest")) {
            throw new InputException(log + ": from=" + from + ": allowed: earliest, latest");
        }
        String until = params.get("until");
        if (until != null && !until.equals("end")) {
            throw new InputException(
                    log + ": until=" + until + ": allowed: end (read what the topic holds, then stop)");
        }
        Long start = null;
        if (params.containsKey("start")) {
            try {
                Instant i = Instant.parse(params.get("start"));
                start = Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000_000L), i.getNano());
            } catch (DateTimeParseException | ArithmeticException e) {
                throw new InputException(log + ": start=" + params.get("start")
                        + ": expected an instant in UTC such as 2026-03-02T10:00:00Z");
            }
        }
        return new KafkaTopic(
                rest.substring(0, slash),
                rest.substring(slash + 1),
                from.equals("latest"),
                until != null,
                start,
                params.getOrDefault("group", "outlier-lab"));
    }
}
