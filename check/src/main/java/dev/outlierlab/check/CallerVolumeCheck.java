package dev.outlierlab.check;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.EjectionType;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.sim.hinges.IntervalVolume;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The request-volume findings when the traffic comes from several callers ({@code check --clients P --rps R}):
 * every caller (a sidecar per calling pod, a gRPC channel) is its own detector and sees {@code R / P}, so the
 * volume that success rate and failure percentage need is judged per caller ({@link IntervalVolume}, as Envoy's
 * {@code DetectorImpl::processSuccessRateEjections} judges a host only with the volume in its own interval). The
 * same rule ids as with one caller; the message and the numbers say it is per caller.
 */
final class CallerVolumeCheck {
    private CallerVolumeCheck() {}

    static void check(
            OutlierDetectionConfig c,
            int hosts,
            long rps,
            FindingSink sink,
            EjectionType type,
            OutlierSetting volumeSetting,
            Rule unreachable,
            String name) {
        int clients = sink.clients();
        IntervalVolume v = IntervalVolume.of(c, hosts, rps, clients).stream()
                .filter(x -> x.type() == type)
                .findFirst()
                .orElseThrow();
        if (v.verdict() == IntervalVolume.Verdict.RUNS || v.verdict() == IntervalVolume.Verdict.NEVER_TOO_FEW_HOSTS) {
            return; // too few hosts is the caller-independent finding said before
        }
        long interval = c.intervalNanos();
        long volume = v.requestVolume();
        BigInteger need =
                BigInteger.valueOf(volume).multiply(BigInteger.valueOf(hosts)).multiply(BigInteger.valueOf(clients));
        long neededRps = need.multiply(BigInteger.valueOf(Durations.SECOND))
                .add(BigInteger.valueOf(interval - 1))
                .divide(BigInteger.valueOf(interval))
                .longValueExact();
        long neededIntervalMs = need.multiply(BigInteger.valueOf(1000))
                .add(BigInteger.valueOf(rps - 1))
                .divide(BigInteger.valueOf(rps))
                .longValueExact();
        String neededInterval = Durations.format(neededIntervalMs * Durations.MILLISECOND);
        Map<String, Object> n = new LinkedHashMap<>();
        n.put("rps", rps);
        n.put("clients", (long) clients);
        n.put("rps_per_client", FindingSink.round((double) rps / clients));
        n.put("hosts", (long) hosts);
        n.put("interval_seconds", Durations.toSeconds(interval));
        n.put("requests_per_client_per_interval", FindingSink.round(v.perCaller()));
        n.put("requests_per_host_per_client_per_interval", FindingSink.round(v.perHost()));
        n.put(volumeSetting.envoyName(), volume);
        n.put("never_runs", v.verdict().never());
        n.put("rps_needed", neededRps);
        n.put("interval_needed_seconds", neededIntervalMs / 1000.0);
        String share = "at " + rps + " rps over " + clients + " callers, each caller (its own detector) sends "
                + FindingSink.fmt(FindingSink.round((double) rps / clients)) + " rps: about "
                + FindingSink.fmt(FindingSink.round(v.perCaller())) + " requests per " + Durations.format(interval)
                + " interval, " + FindingSink.fmt(FindingSink.round(v.perHost())) + " to each of " + hosts
                + " hosts, below " + volumeSetting.envoyName() + " " + volume;
        String verdict = v.verdict().never()
                ? name + " detection can never run for any caller: " + share + ", and " + v.minimumHosts()
                        + " hosts with " + volume + " each would need " + v.minimumHosts() * volume
                        + " from one caller."
                : name + " detection cannot judge any host while every host is in rotation: " + share
                        + "; it runs only while ejections leave fewer hosts to share a caller's traffic.";
        sink.add(
                unreachable,
                Severity.WARNING,
                verdict + " It needs " + neededRps + " rps over the " + clients + " callers, an interval of "
                        + neededInterval + ", or a lower volume.",
                n,
                List.of(new FixStyle.Change(
                        "outlier_detection.interval",
                        neededInterval,
                        "or " + volumeSetting.envoyName() + ": " + (long) Math.floor(v.perHost()))),
                sink.target().line());
    }
}
