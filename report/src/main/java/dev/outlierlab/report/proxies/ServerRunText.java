package dev.outlierlab.report.proxies;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The text report of a {@link ServerRun}: its head, the scenario and faults, totals, servers and events. */
public final class ServerRunText {
    private ServerRunText() {}

    /**
     * The report, listing at most {@code maxEvents} ejections and returns, and after its head what the configuration
     * sets that the run leaves out.
     */
    public static String render(ServerRun r, int maxEvents, List<String> notModelled) {
        StringBuilder b = new StringBuilder();
        b.append(r.head()).append('\n');
        for (String note : notModelled) {
            b.append("not modelled: ").append(note).append('\n');
        }
        Scenario s = r.scenario();
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
                    .append(f.latencyNanos() > 0 ? " after " + Durations.format(f.latencyNanos()) : "")
                    .append('\n');
        }
        b.append(String.format(
                Locale.ROOT,
                "requests %d, client 5xx %d (%.2f %%), %s %d%n",
                r.requests(),
                r.clientErrors(),
                r.clientErrorPercent(),
                r.noneLeft(),
                r.noneLeftCount()));
        int w = r.servers().stream().mapToInt(String::length).max().orElse(6) + 2;
        b.append(String.format(Locale.ROOT, "%-" + w + "s %10s %10s%n", "server", "attempts", "ejections"));
        for (int i = 0; i < r.servers().size(); i++) {
            b.append(String.format(
                    Locale.ROOT, "%-" + w + "s %10d %10d%n", r.servers().get(i), r.attempts()[i], r.ejections()[i]));
        }
        if (!r.counters().isEmpty()) {
            StringBuilder c = new StringBuilder();
            for (Map.Entry<String, Long> e : r.counters().entrySet()) {
                c.append(c.length() == 0 ? "" : ", ")
                        .append(e.getKey())
                        .append(' ')
                        .append(e.getValue());
            }
            b.append(c).append('\n');
        }
        int shown = Math.min(maxEvents, r.events().size());
        b.append("ejections and returns (").append(r.events().size()).append("):\n");
        for (ServerRun.Event e : r.events().subList(0, shown)) {
            b.append(String.format(Locale.ROOT, "%10.3fs", e.timeNanos() / 1e9))
                    .append("  ")
                    .append(e.action())
                    .append("  ")
                    .append(e.server())
                    .append("  ")
                    .append(e.detail().isEmpty() ? e.reason() : e.detail())
                    .append('\n');
        }
        if (r.events().size() > shown) {
            b.append("  ... ").append(r.events().size() - shown).append(" more (raise --events)\n");
        }
        return b.toString();
    }
}
