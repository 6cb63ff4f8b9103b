package dev.outlierlab.cli.proxies;

import dev.outlierlab.config.InputException;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The lab's scenario moved onto a server configuration's servers, and the head of the text reports. */
final class ServerScenario {
    private ServerScenario() {}

    /**
     * The scenario with its hosts renamed to {@code servers}, in order (its first host is the first server, ...),
     * faults following their hosts; a fault on a host beyond the last server is refused.
     */
    static Scenario onServers(Scenario s, List<String> servers) {
        List<String> hosts = s.cluster().hosts();
        List<FaultSpec> faults = new ArrayList<>();
        for (FaultSpec f : s.faults()) {
            List<String> renamed = new ArrayList<>();
            for (String h : f.hosts()) {
                int i = hosts.indexOf(h);
                if (i < 0 || i >= servers.size()) {
                    throw new InputException("faults: host " + h + " is not allowed; the configuration has "
                            + servers.size() + " servers (" + String.join(", ", servers) + "), the scenario's hosts "
                            + String.join(", ", hosts.subList(0, Math.min(servers.size(), hosts.size())))
                            + " in that order");
                }
                renamed.add(servers.get(i));
            }
            faults.add(f.withHosts(renamed));
        }
        return new Scenario(
                s.name(),
                s.durationNanos(),
                s.seed(),
                new ClusterSpec(servers, s.cluster().panicThresholdPercent()),
                s.traffic(),
                faults,
                s.outlierDetection(),
                s.healthChecks(),
                s.envoyVersion(),
                s.load(),
                s.routing());
    }

    /** The report's head: the run, its traffic and its faults on the servers. */
    static StringBuilder head(String what, Scenario s) {
        StringBuilder b = new StringBuilder();
        b.append(what).append('\n');
        b.append("scenario ")
                .append(s.name())
                .append(": ")
                .append(Durations.format(s.durationNanos()))
                .append(", ")
                .append(s.traffic().rps())
                .append(" rps, seed ")
                .append(s.seed())
                .append('\n');
        for (FaultSpec f : s.faults()) {
            b.append("fault: ")
                    .append(String.join(", ", f.hosts()))
                    .append(" from ")
                    .append(Durations.format(f.startNanos()))
                    .append(" to ")
                    .append(Durations.format(f.endNanos()))
                    .append(", ")
                    .append(String.format(Locale.ROOT, "%.1f", f.errorRatePpm() / 1e4))
                    .append(" % ")
                    .append(
                            f.result() != null
                                    ? f.result().toString().toLowerCase(Locale.ROOT)
                                    : Integer.toString(f.status()))
                    .append('\n');
        }
        return b;
    }

    /** The totals line and one row per server. */
    static void totals(
            StringBuilder b,
            long requests,
            long clientErrors,
            String noneLeft,
            long noneLeftCount,
            List<String> servers,
            long[] attempts,
            long[] ejections) {
        b.append(String.format(
                Locale.ROOT,
                "requests %d, client 5xx %d (%.2f %%), %s %d%n",
                requests,
                clientErrors,
                requests == 0 ? 0.0 : 100.0 * clientErrors / requests,
                noneLeft,
                noneLeftCount));
        int w = servers.stream().mapToInt(String::length).max().orElse(6) + 2;
        b.append(String.format(Locale.ROOT, "%-" + w + "s %10s %10s%n", "server", "attempts", "ejections"));
        for (int i = 0; i < servers.size(); i++) {
            b.append(String.format(Locale.ROOT, "%-" + w + "s %10d %10d%n", servers.get(i), attempts[i], ejections[i]));
        }
    }

    /** The line that counts the events not shown, if any. */
    static void more(StringBuilder b, int shown, int total) {
        if (total > shown) {
            b.append("  ... ").append(total - shown).append(" more (raise --events)\n");
        }
    }

    static String time(long nanos) {
        return String.format(Locale.ROOT, "%10.3fs", nanos / 1e9);
    }
}
