package dev.outlierlab.report;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Timestamp;
import com.google.protobuf.UInt64Value;
import com.google.protobuf.util.JsonFormat;
import dev.outlierlab.engine.envoy.EjectionType;
import dev.outlierlab.engine.envoy.event.DegradationEvent;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.FailurePercentageEvidence;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.engine.envoy.event.SuccessRateEvidence;
import dev.outlierlab.sim.RunResult;
import io.envoyproxy.envoy.data.cluster.v3.Action;
import io.envoyproxy.envoy.data.cluster.v3.OutlierDetectionEvent;
import io.envoyproxy.envoy.data.cluster.v3.OutlierEjectConsecutive;
import io.envoyproxy.envoy.data.cluster.v3.OutlierEjectFailurePercentage;
import io.envoyproxy.envoy.data.cluster.v3.OutlierEjectSuccessRate;
import io.envoyproxy.envoy.data.cluster.v3.OutlierEjectionType;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A run's decisions as Envoy's own outlier event log ({@code event_log_path}) writes them: one JSON line of
 * {@code envoy.data.cluster.v3.OutlierDetectionEvent} per ejection, unenforced detection and return, built with
 * Envoy's message and printed as Envoy prints it ({@code EventLoggerImpl::logEject} and {@code logUneject}, JSON
 * with primitive fields always printed, fields in field-number order). Envoy's quirks are kept: no line for an
 * overflow ({@code ejectHost} only counts it); a return has the enum's zero type, {@code CONSECUTIVE_5XX}, and
 * {@code enforced: false} (envoyproxy/envoy issue 35186); success rates are {@code uint32} fields, so the doubles
 * are truncated; {@code secs_since_last_action} is a {@code UInt64Value}, printed as a string, whole seconds
 * truncated, from the host's last return (for an ejection) or last ejection (for a return), and absent when there
 * was none. Timestamps are {@code start} plus the simulated time, in whole milliseconds as Envoy's
 * {@code TimestampUtil::systemClockToTimestamp} writes them. A degraded host cleared ({@code detect_degraded_hosts},
 * Envoy 1.38) is written as {@link #degradation} says, in the order the run made its decisions.
 */
public final class EnvoyEventLog {
    private static final JsonFormat.Printer PRINTER = JsonFormat.printer()
            .preservingProtoFieldNames()
            .includingDefaultValueFields()
            .omittingInsignificantWhitespace();

    private EnvoyEventLog() {}

    /** The log's lines, each ending in a newline; {@code cluster} names the cluster as Envoy's config does. */
    public static String render(RunResult result, String cluster, Instant start) {
        StringBuilder out = new StringBuilder();
        Map<String, Long> lastEjection = new HashMap<>();
        Map<String, Long> lastReturn = new HashMap<>();
        int next = 0;
        List<DegradationEvent> degradations = result.degradations();
        for (int index = 0; index < result.events().size(); index++) {
            OutlierEvent e = result.events().get(index);
            for (; next < degradations.size() && result.degradationPositions().get(next) <= index; next++) {
                out.append(degradation(degradations.get(next), cluster, start, lastEjection, lastReturn));
            }
            if (e.action() == EventAction.OVERFLOW) {
                continue;
            }
            OutlierDetectionEvent.Builder b = OutlierDetectionEvent.newBuilder()
                    .setClusterName(cluster)
                    .setUpstreamUrl(e.host())
                    .setNumEjections((int) e.numEjections())
                    .setTimestamp(timestamp(start, e.timeNanos()));
            Long since;
            if (e.action() == EventAction.UNEJECT) {
                since = lastEjection.get(e.host());
                b.setAction(Action.UNEJECT);
                lastReturn.put(e.host(), e.timeNanos());
            } else {
                since = lastReturn.get(e.host());
                b.setAction(Action.EJECT).setType(type(e.type())).setEnforced(e.action() == EventAction.EJECT);
                eject(b, e);
                if (e.action() == EventAction.EJECT) {
                    lastEjection.put(e.host(), e.timeNanos());
                }
            }
            if (since != null) {
                b.setSecsSinceLastAction(UInt64Value.of((e.timeNanos() - since) / 1_000_000_000L));
            }
            try {
                out.append(PRINTER.print(b.build())).append('\n');
            } catch (InvalidProtocolBufferException ex) {
                throw new IllegalStateException("an OutlierDetectionEvent Envoy's printer refuses: " + b, ex);
            }
        }
        for (; next < degradations.size(); next++) {
            out.append(degradation(degradations.get(next), cluster, start, lastEjection, lastReturn));
        }
        return out.toString();
    }

    /**
     * A degradation as {@code setHostDegradedMainThread} and {@code checkHostForUndegrade} log it: a mark with
     * {@code logEject(host, DEGRADED, true)} (an {@code EJECT} line of type {@code DEGRADED}, enforced, with the empty
     * consecutive-event message and {@code secs_since_last_action} from the host's last return), a clearing with
     * {@code logUneject(host)} (an {@code UNEJECT} line, {@code secs_since_last_action} from its last ejection);
     * {@code num_ejections} is the host's ejection count in both. The bundled Envoy API has no {@code DEGRADED}
     * value, so its name is written in place of the zero value the message was built with.
     */
    private static String degradation(
            DegradationEvent d,
            String cluster,
            Instant start,
            Map<String, Long> lastEjection,
            Map<String, Long> lastReturn) {
        OutlierDetectionEvent.Builder b = OutlierDetectionEvent.newBuilder()
                .setClusterName(cluster)
                .setUpstreamUrl(d.host())
                .setNumEjections((int) d.numEjections())
                .setTimestamp(timestamp(start, d.timeNanos()));
        Long since = d.degraded() ? lastReturn.get(d.host()) : lastEjection.get(d.host());
        if (d.degraded()) {
            b.setAction(Action.EJECT)
                    .setEnforced(true)
                    .setEjectConsecutiveEvent(OutlierEjectConsecutive.getDefaultInstance());
        } else {
            b.setAction(Action.UNEJECT);
        }
        if (since != null) {
            b.setSecsSinceLastAction(UInt64Value.of((d.timeNanos() - since) / 1_000_000_000L));
        }
        try {
            String line = PRINTER.print(b.build());
            if (d.degraded()) {
                line = line.replaceFirst("^\\{\"type\":\"CONSECUTIVE_5XX\"", "{\"type\":\"DEGRADED\"");
            }
            return line + "\n";
        } catch (InvalidProtocolBufferException ex) {
            throw new IllegalStateException("an OutlierDetectionEvent Envoy's printer refuses: " + b, ex);
        }
    }

    private static void eject(OutlierDetectionEvent.Builder b, OutlierEvent e) {
        if (e.evidence() instanceof SuccessRateEvidence sr) {
            b.setEjectSuccessRateEvent(OutlierEjectSuccessRate.newBuilder()
                    .setHostSuccessRate(uint32(sr.hostSuccessRatePercent()))
                    .setClusterAverageSuccessRate(uint32(sr.meanPercent()))
                    .setClusterSuccessRateEjectionThreshold(uint32(sr.thresholdPercent())));
        } else if (e.evidence() instanceof FailurePercentageEvidence fp) {
            b.setEjectFailurePercentageEvent(OutlierEjectFailurePercentage.newBuilder()
                    .setHostSuccessRate(uint32(100.0 - fp.hostFailurePercent())));
        } else {
            b.setEjectConsecutiveEvent(OutlierEjectConsecutive.getDefaultInstance());
        }
    }

    /** Envoy's implicit double to uint32 conversion: truncation toward zero (a negative threshold becomes 0 here). */
    private static int uint32(double percent) {
        return percent <= 0 ? 0 : (int) percent;
    }

    private static OutlierEjectionType type(EjectionType t) {
        return switch (t) {
            case CONSECUTIVE_5XX -> OutlierEjectionType.CONSECUTIVE_5XX;
            case CONSECUTIVE_GATEWAY_FAILURE -> OutlierEjectionType.CONSECUTIVE_GATEWAY_FAILURE;
            case SUCCESS_RATE -> OutlierEjectionType.SUCCESS_RATE;
            case CONSECUTIVE_LOCAL_ORIGIN_FAILURE -> OutlierEjectionType.CONSECUTIVE_LOCAL_ORIGIN_FAILURE;
            case SUCCESS_RATE_LOCAL_ORIGIN -> OutlierEjectionType.SUCCESS_RATE_LOCAL_ORIGIN;
            case FAILURE_PERCENTAGE -> OutlierEjectionType.FAILURE_PERCENTAGE;
            case FAILURE_PERCENTAGE_LOCAL_ORIGIN -> OutlierEjectionType.FAILURE_PERCENTAGE_LOCAL_ORIGIN;
        };
    }

    /**
     * Envoy's {@code TimestampUtil::systemClockToTimestamp}: the time in whole milliseconds since the epoch
     * ({@code TimeUtil::MillisecondsToTimestamp}), the rest truncated.
     */
    static Timestamp timestamp(Instant start, long nanos) {
        Instant at = start.plusNanos(nanos);
        long millis = Math.floorDiv(at.getEpochSecond() * 1_000_000_000L + at.getNano(), 1_000_000L);
        return Timestamp.newBuilder()
                .setSeconds(Math.floorDiv(millis, 1000L))
                .setNanos((int) (Math.floorMod(millis, 1000L) * 1_000_000L))
                .build();
    }
}
