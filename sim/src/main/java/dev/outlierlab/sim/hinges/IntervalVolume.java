package dev.outlierlab.sim.hinges;

import dev.outlierlab.engine.envoy.EjectionType;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.List;

/**
 * Whether an interval detector (success rate, failure percentage) can run for one caller, from the traffic each
 * caller sends: Envoy's {@code DetectorImpl::processSuccessRateEjections} judges only hosts with at least the
 * detector's request volume in the interval just ended, and only when at least its minimum hosts qualify. Every
 * caller is its own detector and sees {@code rps / clients} of the traffic, so a caller sends
 * {@code rps * interval / clients} requests an interval, about that over the hosts to each host in rotation. If
 * that total is below {@code minimum_hosts * request_volume} no spread of it can qualify enough hosts: the
 * detector can never run. If it reaches it but each host's share does not, the detector runs only while ejections
 * (or failed health checks) leave few enough hosts in rotation. The figures use {@code traffic.rps}; rate steps
 * and Poisson arrivals move them.
 *
 * @param type            {@link EjectionType#SUCCESS_RATE} or {@link EjectionType#FAILURE_PERCENTAGE}
 * @param requestVolume   the detector's {@code *_request_volume}
 * @param minimumHosts    its {@code *_minimum_hosts}
 * @param perCaller       requests one caller sends in one interval
 * @param perHost         of those, to each host when every host is in rotation
 * @param enforcingPercent the detector's {@code enforcing_*} percentage (0: it detects but never ejects)
 */
public record IntervalVolume(
        EjectionType type,
        long requestVolume,
        long minimumHosts,
        int hosts,
        double perCaller,
        double perHost,
        long enforcingPercent,
        Verdict verdict) {

    /** What the traffic lets the detector do. */
    public enum Verdict {
        /** Every host in rotation gets the volume: the detector judges every interval. */
        RUNS,
        /** The caller's traffic is enough for the minimum hosts, but only once ejections concentrate it. */
        ONLY_WITH_FEWER_HOSTS,
        /** The cluster has fewer hosts than the minimum. */
        NEVER_TOO_FEW_HOSTS,
        /** The caller sends fewer requests an interval than the minimum hosts' volumes add up to. */
        NEVER_TOO_LITTLE_TRAFFIC;

        public boolean never() {
            return this == NEVER_TOO_FEW_HOSTS || this == NEVER_TOO_LITTLE_TRAFFIC;
        }
    }

    /** The two interval detectors of the scenario, success rate first. */
    public static List<IntervalVolume> of(Scenario s) {
        return of(
                s.outlierDetection(),
                s.cluster().size(),
                s.traffic().rps(),
                s.traffic().clients());
    }

    /** The two interval detectors for {@code hosts} hosts and {@code rps} shared over {@code clients} callers. */
    public static List<IntervalVolume> of(OutlierDetectionConfig c, int hosts, long rps, int clients) {
        double perCaller = rps * (c.intervalNanos() / 1e9) / clients;
        return List.of(
                judge(
                        EjectionType.SUCCESS_RATE,
                        c.successRateRequestVolume(),
                        c.successRateMinimumHosts(),
                        hosts,
                        perCaller,
                        c.enforcingPercent(EjectionType.SUCCESS_RATE)),
                judge(
                        EjectionType.FAILURE_PERCENTAGE,
                        c.failurePercentageRequestVolume(),
                        c.failurePercentageMinimumHosts(),
                        hosts,
                        perCaller,
                        c.enforcingPercent(EjectionType.FAILURE_PERCENTAGE)));
    }

    private static IntervalVolume judge(
            EjectionType type, long volume, long minimumHosts, int hosts, double perCaller, long enforcing) {
        double perHost = perCaller / hosts;
        Verdict v;
        if (hosts < minimumHosts) {
            v = Verdict.NEVER_TOO_FEW_HOSTS;
        } else if (perCaller < (double) Math.max(1, minimumHosts) * volume) {
            v = Verdict.NEVER_TOO_LITTLE_TRAFFIC;
        } else if (perHost < volume) {
            v = Verdict.ONLY_WITH_FEWER_HOSTS;
        } else {
            v = Verdict.RUNS;
        }
        return new IntervalVolume(type, volume, minimumHosts, hosts, perCaller, perHost, enforcing, v);
    }

    /** The Envoy setting name prefix: {@code success_rate} or {@code failure_percentage}. */
    public String settingPrefix() {
        return type == EjectionType.SUCCESS_RATE ? "success_rate" : "failure_percentage";
    }
}
