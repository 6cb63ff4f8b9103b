package dev.outlierlab.check;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.EjectionType;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Whether success rate and failure percentage can judge a host at all: each needs a minimum of hosts
 * ({@code *_minimum_hosts}) and, at the given rps spread evenly over the hosts, a request volume per host in one
 * interval ({@code *_request_volume}). With several callers the volume is judged per caller
 * ({@link CallerVolumeCheck}).
 */
final class VolumeCheck {
    private VolumeCheck() {}

    static void successRate(OutlierDetectionConfig c, Integer hosts, Long rps, FindingSink sink) {
        check(
                c,
                hosts,
                rps,
                sink,
                EjectionType.SUCCESS_RATE,
                OutlierSetting.SUCCESS_RATE_MINIMUM_HOSTS,
                OutlierSetting.SUCCESS_RATE_REQUEST_VOLUME,
                Rule.SUCCESS_RATE_TOO_FEW_HOSTS,
                Rule.SUCCESS_RATE_VOLUME_UNREACHABLE,
                "success-rate");
    }

    static void failurePercentage(OutlierDetectionConfig c, Integer hosts, Long rps, FindingSink sink) {
        check(
                c,
                hosts,
                rps,
                sink,
                EjectionType.FAILURE_PERCENTAGE,
                OutlierSetting.FAILURE_PERCENTAGE_MINIMUM_HOSTS,
                OutlierSetting.FAILURE_PERCENTAGE_REQUEST_VOLUME,
                Rule.FAILURE_PERCENTAGE_TOO_FEW_HOSTS,
                Rule.FAILURE_PERCENTAGE_VOLUME_UNREACHABLE,
                "failure-percentage");
    }

    private static void check(
            OutlierDetectionConfig c,
            Integer hosts,
            Long rps,
            FindingSink sink,
            EjectionType type,
            OutlierSetting minHostsSetting,
            OutlierSetting volumeSetting,
            Rule tooFew,
            Rule unreachable,
            String name) {
        CheckTarget target = sink.target();
        if (!Detectors.canEject(c, type) || hosts == null || hosts < 2) {
            return;
        }
        long minHosts = c.get(minHostsSetting);
        long volume = c.get(volumeSetting);
        if (hosts < minHosts) {
            Map<String, Object> n = new LinkedHashMap<>();
            n.put("hosts", (long) hosts);
            n.put(minHostsSetting.envoyName(), minHosts);
            List<FixStyle.Change> fix = TooFewHostsFix.of(c, hosts, type);
            sink.add(
                    tooFew,
                    Chosen.severity(c, type),
                    name + " detection can never run: it needs " + minHosts + " hosts with " + volume
                            + " requests each in an interval, and the cluster has " + hosts,
                    n,
                    fix,
                    target.line());
            return;
        }
        if (rps == null) {
            return;
        }
        if (sink.clients() > 1) {
            CallerVolumeCheck.check(c, hosts, rps, sink, type, volumeSetting, unreachable, name);
            return;
        }
        long interval = c.intervalNanos();
        // requests in one interval spread evenly over the hosts: rps * interval / 1e9 / hosts
        BigInteger perHost = BigInteger.valueOf(rps)
                .multiply(BigInteger.valueOf(interval))
                .divide(BigInteger.valueOf(Durations.SECOND))
                .divide(BigInteger.valueOf(hosts));
        if (perHost.compareTo(BigInteger.valueOf(volume)) >= 0) {
            return;
        }
        long neededRps = BigInteger.valueOf(volume)
                .multiply(BigInteger.valueOf(hosts))
                .multiply(BigInteger.valueOf(Durations.SECOND))
                .add(BigInteger.valueOf(interval - 1))
                .divide(BigInteger.valueOf(interval))
                .longValueExact();
        long neededIntervalMs = BigInteger.valueOf(volume)
                .multiply(BigInteger.valueOf(hosts))
                .multiply(BigInteger.valueOf(1000))
                .add(BigInteger.valueOf(rps - 1))
                .divide(BigInteger.valueOf(rps))
                .longValueExact();
        Map<String, Object> n = new LinkedHashMap<>();
        n.put("rps", rps);
        n.put("hosts", (long) hosts);
        n.put("interval_seconds", Durations.toSeconds(interval));
        n.put("requests_per_host_per_interval", perHost.longValue());
        n.put(volumeSetting.envoyName(), volume);
        n.put("rps_needed", neededRps);
        n.put("interval_needed_seconds", neededIntervalMs / 1000.0);
        String neededInterval = Durations.format(neededIntervalMs * Durations.MILLISECOND);
        sink.add(
                unreachable,
                Chosen.severity(c, type),
                name + " detection cannot judge any host: at " + rps + " rps over " + hosts
                        + " hosts each gets " + perHost + " requests per " + Durations.format(interval)
                        + " interval, below "
                        + volumeSetting.envoyName() + " " + volume + ". It needs " + neededRps + " rps, an interval of "
                        + neededInterval + ", or a lower volume.",
                n,
                List.of(new FixStyle.Change(
                        "outlier_detection.interval",
                        neededInterval,
                        "or " + volumeSetting.envoyName() + ": " + perHost.longValue())),
                target.line());
    }
}
