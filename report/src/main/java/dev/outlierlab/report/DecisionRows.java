package dev.outlierlab.report;

import dev.outlierlab.config.Wording;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.sim.RunResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongFunction;

/**
 * The decisions table of a run report: decisions that say exactly the same thing (caller, host, action,
 * detector and reason with its numbers) collapse into one row with their count and times, e.g.
 * {@code 21 x  40 s .. 240 s every 10 s  host-0  overflow  success_rate  ...}; rows are in the order of their
 * first decision, and the time column has one width for the whole table. This mirrors nothing in Envoy, whose
 * event log ({@code EventLoggerImpl::logEject}) writes one line per decision; the JSON output keeps them all.
 *
 * @param caller the caller's index, or -1 in a run with one caller
 * @param times  every decision's time in nanoseconds, in order
 */
public record DecisionRows(int caller, String host, String action, String detector, String why, List<Long> times) {

    /** The rows of the decisions the run kept, in the order of each row's first decision. */
    public static List<DecisionRows> of(RunResult r) {
        Map<List<Object>, List<Long>> groups = new LinkedHashMap<>();
        Map<List<Object>, OutlierEvent> firsts = new LinkedHashMap<>();
        List<OutlierEvent> events = r.events();
        for (int i = 0; i < events.size(); i++) {
            OutlierEvent e = events.get(i);
            int caller = r.clients() > 1 ? r.clientOf(i) : -1;
            List<Object> key = List.of(
                    caller,
                    e.host(),
                    e.action(),
                    e.type() == null ? "-" : e.type().statSuffix(),
                    EventExplainer.reason(e));
            groups.computeIfAbsent(key, k -> new ArrayList<>()).add(e.timeNanos());
            firsts.putIfAbsent(key, e);
        }
        List<DecisionRows> rows = new ArrayList<>();
        groups.forEach((key, times) -> rows.add(new DecisionRows(
                (Integer) key.get(0),
                (String) key.get(1),
                firsts.get(key).action().jsonName(),
                (String) key.get(3),
                (String) key.get(4),
                List.copyOf(times))));
        return rows;
    }

    /** The times of a row: {@code 40 s}, {@code 40 s, 50 s}, {@code 40 s .. 240 s every 10 s}, or first and last. */
    public String timesText() {
        return timesText(null);
    }

    /** As {@link #timesText()}, each time in the log's clock when {@code clock} is given (a replay's). */
    public String timesText(LogClock clock) {
        LongFunction<String> at = clock == null ? Numbers::seconds : clock::at;
        long first = times.get(0);
        long last = times.get(times.size() - 1);
        if (times.size() == 1) {
            return at.apply(first);
        }
        if (times.size() == 2) {
            return at.apply(first) + ", " + at.apply(last);
        }
        long step = times.get(1) - first;
        for (int i = 2; i < times.size(); i++) {
            if (times.get(i) - times.get(i - 1) != step) {
                return at.apply(first) + " .. " + at.apply(last) + " (irregular)";
            }
        }
        return at.apply(first) + " .. " + at.apply(last) + " every " + Numbers.seconds(step);
    }

    /**
     * The table: a header, at most {@code maxRows} rows and a line counting the decisions not shown.
     *
     * @param maxRows most rows to print ({@code --events})
     */
    public static String render(RunResult r, int maxRows) {
        return render(r, maxRows, null);
    }

    /** As {@link #render(RunResult, int)}, the times in the log's clock when {@code clock} is given. */
    public static String render(RunResult r, int maxRows, LogClock clock) {
        List<DecisionRows> rows = of(r);
        int shown = Math.min(rows.size(), Math.max(0, maxRows));
        boolean callers = r.clients() > 1;
        int hostWidth = Math.max(
                Math.max(6, r.eventHostWidth()),
                rows.stream()
                        .mapToInt(x -> Wording.printable(x.host()).length())
                        .max()
                        .orElse(6));
        int timeWidth = 4;
        int countWidth = 0;
        int detectorWidth = "detector".length();
        long inRows = 0;
        for (int i = 0; i < shown; i++) {
            DecisionRows x = rows.get(i);
            timeWidth = Math.max(timeWidth, x.timesText(clock).length());
            countWidth = Math.max(countWidth, countText(x).length());
            detectorWidth = Math.max(detectorWidth, x.detector().length());
            inRows += x.times().size();
        }
        // the count column only when a row stands for several decisions
        String row = "  " + (countWidth == 0 ? "%s" : "%-" + countWidth + "s ") + "%-" + timeWidth + "s "
                + (callers ? "%-6s " : "%s") + "%-" + hostWidth + "s %-10s %-" + detectorWidth + "s %s%n";
        StringBuilder out = new StringBuilder();
        out.append(String.format(
                Locale.ROOT,
                row,
                countWidth == 0 ? "" : "n",
                "time",
                callers ? "caller" : "",
                "host",
                "action",
                "detector",
                "why"));
        for (int i = 0; i < shown; i++) {
            DecisionRows x = rows.get(i);
            out.append(String.format(
                    Locale.ROOT,
                    row,
                    countText(x),
                    x.timesText(clock),
                    callers ? Integer.toString(x.caller()) : "",
                    Wording.printable(x.host()),
                    x.action(),
                    x.detector(),
                    x.why()));
        }
        long rest = r.eventCount() - inRows;
        if (rest > 0) {
            out.append("  ... ")
                    .append(Numbers.count(rest))
                    .append(rest == 1 ? " more decision" : " more decisions")
                    .append(" (raise --events, or use --format json or csv for all)\n");
        }
        return out.toString();
    }

    private static String countText(DecisionRows x) {
        return x.times().size() == 1 ? "" : x.times().size() + " x";
    }
}
