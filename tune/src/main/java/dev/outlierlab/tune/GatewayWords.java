package dev.outlierlab.tune;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.engine.gateway.PeerSet;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The words of a gateway-profile tune (docs/gateway.md): what a recommendation changes in the
 * gateway's settings, and what the gateway's two rules can do with this traffic (the hard trip needs no volume; the
 * statistical rule needs {@code min_requests} in the window and, over all scored endpoints, a pool large enough that
 * one bad endpoint can lie {@code stdev_factor} deviations below the mean, as no value of N lies more than
 * {@code sqrt(N - 1)} out).
 */
final class GatewayWords {
    private GatewayWords() {}

    static List<String> changes(GatewayConfig a, GatewayConfig b, int hosts) {
        List<String> out = new ArrayList<>();
        if (a.mode() != b.mode()) {
            out.add("sets mode to " + b.mode().configName() + " (from "
                    + a.mode().configName() + ")");
        }
        if (a.consecutiveFailures() != b.consecutiveFailures()) {
            out.add(
                    b.consecutiveFailures() == 0
                            ? "turns the hard trip off (consecutive_failures 0: random failures "
                                    + "at a shared outage's rate make short runs on healthy endpoints)"
                            : "sets consecutive_failures to " + b.consecutiveFailures());
        }
        if (a.peerSet() != b.peerSet() || a.stdevFactor() != b.stdevFactor()) {
            out.add(
                    b.peerSet() == PeerSet.OTHERS
                            ? "compares each endpoint with the others only (peer_set others) at " + num(b.stdevFactor())
                                    + " standard deviations, which one bad endpoint of " + hosts + " can exceed"
                            : "sets peer_set " + b.peerSet().configName() + " at stdev_factor " + num(b.stdevFactor()));
        }
        if (a.minRequests() != b.minRequests()) {
            out.add("scores an endpoint from " + b.minRequests() + " requests in the window (min_requests, from "
                    + a.minRequests()
                    + "), so that a failure or two among the first few does not look like an outlier");
        }
        if (a.minStdevPercent() != b.minStdevPercent()) {
            out.add("sets min_stdev to " + num(b.minStdevPercent()) + " points, so that the spread of a noisy pool or "
                    + "a shared outage does not fire the statistical rule");
        }
        if (a.ejectionTimeNanos() != b.ejectionTimeNanos()) {
            out.add("sets ejection_time to " + Durations.format(b.ejectionTimeNanos()));
        }
        if (a.processes() != b.processes()) {
            out.add("writes processes " + b.processes() + ", one per caller");
        }
        return out;
    }

    static List<String> detectors(GatewayConfig g, int hosts, long rpsPerCaller) {
        long perWindow = (long) Math.floor(rpsPerCaller * (g.windowNanos() / 1e9) / hosts);
        double zMax = Math.sqrt(hosts - 1.0);
        List<String> out = new ArrayList<>();
        String per = "each endpoint gets " + perWindow + " requests per " + Durations.format(g.windowNanos())
                + " window from " + (g.processes() == 1 ? "the process" : "each process");
        out.add("the statistical rule "
                + (perWindow >= g.minRequests()
                        ? "can score: " + per + ", at least min_requests " + g.minRequests()
                        : "cannot score: " + per + ", under min_requests " + g.minRequests())
                + "; over all " + hosts + " endpoints (peer_set all) no endpoint lies more than "
                + String.format(Locale.ROOT, "%.2f", zMax) + " deviations below the mean"
                + (zMax <= g.stdevFactor()
                        ? ", so at stdev_factor " + num(g.stdevFactor()) + " it never fires; "
                                + "peer_set others (leave-one-out) can"
                        : ""));
        out.add("the hard trip (consecutive_failures) can run: it needs no volume, only a run of failures in one "
                + "process's attempts on the endpoint, so it catches dead endpoints at any traffic");
        out.add("the gateway has no cap: its rotation guard keeps every endpoint when all would be ejected");
        return out;
    }

    private static String num(double d) {
        return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
    }
}
