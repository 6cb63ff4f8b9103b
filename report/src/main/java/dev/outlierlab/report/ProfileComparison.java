package dev.outlierlab.report;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.engine.gateway.GatewayAction;
import dev.outlierlab.engine.gateway.GatewayEvent;
import dev.outlierlab.report.proxies.ServerRun;
import dev.outlierlab.sim.RunResult;
import dev.outlierlab.sim.RunSummary;
import dev.outlierlab.sim.gateway.GatewayRunResult;
import dev.outlierlab.sim.gateway.GatewaySummary;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The same traffic under several profiles, side by side in one table (for {@code run --profile envoy,grpc,gateway}
 * and the browser lab): failed requests overall and during the faults, detections, ejections, refusals by the cap,
 * returns, the most ejected at once, and when each ejection and return happened.
 */
public final class ProfileComparison {
    /** One profile's column. */
    public record Column(
            String profile,
            long requests,
            long failed,
            long requestsDuringFault,
            long failedDuringFault,
            long detections,
            long ejections,
            long refused,
            long returns,
            int mostOut,
            List<String> ejectedAt,
            List<String> returnedAt) {
        public Column {
            ejectedAt = List.copyOf(ejectedAt);
            returnedAt = List.copyOf(returnedAt);
        }

        double failedPercentDuringFault() {
            return requestsDuringFault == 0 ? 0 : failedDuringFault * 100.0 / requestsDuringFault;
        }
    }

    private static final int TIMES_SHOWN = 6;

    private ProfileComparison() {}

    /** A column for a run of Envoy's or the gRPC profile. */
    public static Column column(String profile, RunResult r) {
        RunSummary s = r.summary();
        List<String> ejected = new ArrayList<>();
        List<String> returned = new ArrayList<>();
        for (OutlierEvent e : r.events()) {
            String at = e.host() + "@" + Durations.format(e.timeNanos());
            if (e.action() == EventAction.EJECT && !e.alreadyEjected()) {
                ejected.add(at);
            } else if (e.action() == EventAction.UNEJECT) {
                returned.add(at);
            }
        }
        return new Column(
                profile,
                s.requests(),
                s.failed(),
                s.requestsDuringFault(),
                s.failedDuringFault(),
                s.ejectionsDetected(),
                s.ejectionsEnforced(),
                s.ejectionsOverflow(),
                s.returns(),
                s.maxEjectedAtOnce(),
                ejected,
                returned);
    }

    /** A column for a run of the gateway profile (no cap: refusals are 0; ejections count every process's). */
    public static Column column(String profile, GatewayRunResult r) {
        GatewaySummary s = r.summary();
        List<String> ejected = new ArrayList<>();
        List<String> returned = new ArrayList<>();
        int out = 0;
        int most = 0;
        for (GatewayEvent e : r.events()) {
            String at = e.endpointName() + "@" + Durations.format(e.timeNanos());
            if (e.action() == GatewayAction.RETURN) {
                returned.add(at);
                out--;
            } else {
                ejected.add(at);
                most = Math.max(most, ++out);
            }
        }
        return new Column(
                profile,
                s.requests(),
                s.failedRequests(),
                s.requestsDuringFault(),
                s.failedRequestsDuringFault(),
                s.ejections(),
                s.ejections(),
                0,
                s.returns(),
                most,
                ejected,
                returned);
    }

    /** A proxy server's run (nginx, HAProxy, Caddy): each ejection is its own detection, no cap refuses one. */
    public static Column column(String profile, ServerRun r) {
        List<String> ejected = new ArrayList<>();
        List<String> returned = new ArrayList<>();
        int out = 0;
        int most = 0;
        for (ServerRun.Event e : r.events()) {
            // to the millisecond: a server's decisions fall at request times, not on the seconds of a timer
            String at =
                    e.server() + "@" + Durations.format(Math.floorDiv(e.timeNanos() + 500_000, 1_000_000) * 1_000_000);
            if (e.action().equals("uneject")) {
                returned.add(at);
                out--;
            } else {
                ejected.add(at);
                most = Math.max(most, ++out);
            }
        }
        return new Column(
                profile,
                r.requests(),
                r.clientErrors(),
                r.requestsDuringFault(),
                r.clientErrorsDuringFault(),
                ejected.size(),
                ejected.size(),
                0,
                returned.size(),
                most,
                ejected,
                returned);
    }

    public static String text(List<Column> columns) {
        StringBuilder out = new StringBuilder();
        List<String[]> rows = new ArrayList<>();
        rows.add(row(columns, "", c -> c.profile()));
        rows.add(row(columns, "requests", c -> Numbers.count(c.requests())));
        rows.add(row(columns, "failed", c -> Numbers.count(c.failed())));
        rows.add(row(columns, "failed in fault", c -> Numbers.two(c.failedPercentDuringFault()) + " %"));
        rows.add(row(columns, "detections", c -> Numbers.count(c.detections())));
        rows.add(row(columns, "ejections", c -> Numbers.count(c.ejections())));
        rows.add(row(columns, "cap refused", c -> Numbers.count(c.refused())));
        rows.add(row(columns, "returns", c -> Numbers.count(c.returns())));
        rows.add(row(columns, "most out", c -> Integer.toString(c.mostOut())));
        rows.add(row(columns, "ejected at", c -> times(c.ejectedAt())));
        rows.add(row(columns, "returned at", c -> times(c.returnedAt())));
        int[] width = new int[columns.size() + 1];
        for (String[] r : rows) {
            for (int i = 0; i < r.length; i++) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        for (String[] r : rows) {
            StringBuilder line = new StringBuilder("  ");
            line.append(String.format(Locale.ROOT, "%-" + width[0] + "s", r[0]));
            for (int i = 1; i < r.length; i++) {
                line.append("   ").append(String.format(Locale.ROOT, "%-" + width[i] + "s", r[i]));
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
        return out.toString();
    }

    private static String times(List<String> at) {
        if (at.isEmpty()) {
            return "-";
        }
        List<String> shown = at.size() <= TIMES_SHOWN ? at : at.subList(0, TIMES_SHOWN);
        return String.join(" ", shown) + (at.size() > TIMES_SHOWN ? " +" + (at.size() - TIMES_SHOWN) : "");
    }

    private static String[] row(List<Column> columns, String label, Function<Column, String> cell) {
        String[] r = new String[columns.size() + 1];
        r[0] = label;
        for (int i = 0; i < columns.size(); i++) {
            r[i + 1] = cell.apply(columns.get(i));
        }
        return r;
    }
}
