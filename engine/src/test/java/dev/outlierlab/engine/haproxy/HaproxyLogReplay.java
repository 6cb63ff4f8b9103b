package dev.outlierlab.engine.haproxy;

import dev.outlierlab.engine.Outcome;
import java.time.OffsetDateTime;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Replays what a real HAProxy did through the lab's {@link HaproxyDetector} and lists every disagreement. Input:
 * HAProxy's log in RFC 5424 format (microsecond times) with the traffic lines of {@link #LOG_FORMAT},
 * {@code option log-health-checks} lines (checks that changed the status or health, and every trip of an
 * {@code on-error} mode that fails a check, "Health analyze") and the "Server be/NAME is DOWN / UP" lines, and the
 * health checks each scripted backend answered (when received, when answered, status). The lab is fed, in time
 * order, every traffic outcome, every check a backend answered (passed for 2xx and 3xx) and every check HAProxy
 * logged as a Layer4 failure (those never reached a backend); a check HAProxy did not log is given with its start,
 * so that the lab voids it when it trips while the check is in flight. Compared: each DOWN and UP, server by server,
 * in order and within {@link #TOLERANCE_NANOS}; each request sent to a server the lab has UP (away from a change by
 * more than the tolerance); each {@code <NOSRV>} answered while the lab has every server DOWN.
 */
final class HaproxyLogReplay {
    static final String LOG_FORMAT = "\"T %s %ST %ts\"";
    /**
     * A Lua action ({@code http-response lua.mark}) that logs "R server status" when HAProxy handles a response's
     * headers: that is when {@code observe layer7} judged the status ({@code health_adjust} in
     * {@code http_wait_for_response}, {@code src/http_ana.c}, right before the response rules), while the traffic
     * line is written when the request ends, which on a busy machine may come after a health check HAProxy read
     * later. Log lines carry the time they are written ({@code timeofday_as_iso_us}, {@code src/log.c}).
     */
    static final String RESPONSE_MARK_LUA = "core.register_action(\"mark\", { \"http-res\" }, function(txn)\n"
            + "    txn:Info(\"R \" .. txn.f:srv_name() .. \" \" .. txn.f:status())\nend)\n";

    static final long TOLERANCE_NANOS = 20_000_000L;
    private static final Pattern LINE = Pattern.compile("^<\\d+>1 (\\S+) \\S+ haproxy \\d+ - - (.*)$");
    private static final Pattern TRAFFIC = Pattern.compile("^T (\\S+) (-?\\d+) (\\S\\S)");
    private static final Pattern MARK = Pattern.compile("^R (\\S+) \\d+$");
    private static final Pattern ANY_CHECK = Pattern.compile(
            "^Health check for server be/(\\S+) (succeeded|failed), reason: Layer[47].*check duration: (\\d+)ms");
    private static final Pattern STATE = Pattern.compile("^Server be/(\\S+) is (DOWN|UP)");
    private static final Pattern TRIP =
            Pattern.compile("^Health check for server be/(\\S+) failed, reason: Health analyze");

    /** Traffic (kind 0, value the outcome) or a check (kind 1, value 1 if passed, started at {@code start}). */
    private record Step(long t, int kind, int server, int value, long start) {}

    private record Change(long t, int server, boolean down) {}

    final List<String> disagreements = new ArrayList<>();
    final List<HaproxyEvent> events = new ArrayList<>();
    int requests;
    int clientErrors;
    int noServer;
    /** HAProxy's last log line: checks answered later were never read, or read without any effect. */
    private long lastLogNanos = Long.MIN_VALUE;

    private final List<String> names;
    private final HaproxyDetector detector;
    private final List<Step> steps = new ArrayList<>();
    private final List<Change> real = new ArrayList<>();
    private final List<long[]> sent = new ArrayList<>();
    /** Active checks HAProxy logged (those that changed the health): server, HAProxy's time, 1 if passed. */
    private final List<long[]> loggedChecks = new ArrayList<>();
    /** HAProxy's logged status changes in log order: server, HAProxy's time, 1 for a trip ("Health analyze"). */
    private final List<long[]> statusLines = new ArrayList<>();
    /** Per server, the times HAProxy handled responses whose traffic line is still to come. */
    private final Map<Integer, ArrayDeque<Long>> marks = new HashMap<>();
    /** The traffic steps in log order. */
    private final List<Step> traffic = new ArrayList<>();

    HaproxyLogReplay(List<HaproxyServer> servers) {
        names = new ArrayList<>();
        for (HaproxyServer s : servers) {
            names.add(s.name());
        }
        detector = new HaproxyDetector(servers, null, events::add);
    }

    void readLog(List<String> lines) {
        for (String raw : lines) {
            Matcher m = LINE.matcher(raw);
            if (!m.find()) {
                continue;
            }
            OffsetDateTime at = OffsetDateTime.parse(m.group(1));
            long t = at.toEpochSecond() * 1_000_000_000L + at.getNano();
            lastLogNanos = Math.max(lastLogNanos, t);
            String msg = m.group(2);
            Matcher tr = TRAFFIC.matcher(msg);
            Matcher st = STATE.matcher(msg);
            Matcher any = ANY_CHECK.matcher(msg);
            Matcher trip = TRIP.matcher(msg);
            Matcher mark = MARK.matcher(msg);
            if (mark.find()) {
                marks.computeIfAbsent(names.indexOf(mark.group(1)), k -> new ArrayDeque<>())
                        .add(t);
                continue;
            }
            if (trip.find()) {
                statusLines.add(new long[] {names.indexOf(trip.group(1)), t, 1});
            }
            if (any.find()) {
                statusLines.add(new long[] {names.indexOf(any.group(1)), t, 0});
                loggedChecks.add(new long[] {
                    names.indexOf(any.group(1)),
                    t,
                    any.group(2).equals("succeeded") ? 1 : 0,
                    Long.parseLong(any.group(3)) * 1_000_000L
                });
            }
            if (tr.find()) {
                if (tr.group(3).charAt(0) == 'C') {
                    continue; // the client went away (the test's readiness probe): no request
                }
                requests++;
                int status = Integer.parseInt(tr.group(2));
                clientErrors += status >= 500 ? 1 : 0;
                if (tr.group(1).equals("<NOSRV>")) {
                    noServer++;
                    sent.add(new long[] {t, -1});
                    continue;
                }
                int server = names.indexOf(tr.group(1));
                Long handled =
                        marks.get(server) == null ? null : marks.get(server).poll();
                t = handled == null ? t : handled; // when HAProxy handled its response (none: no response)
                String term = tr.group(3);
                int outcome = term.charAt(0) == 's' && term.charAt(1) == 'C'
                        ? Outcome.CONNECT_FAILED
                        : term.charAt(0) == 's' && term.charAt(1) == 'H' ? Outcome.TIMEOUT : status;
                steps.add(new Step(t, 0, server, outcome, t));
                traffic.add(steps.get(steps.size() - 1));
                sent.add(new long[] {t, server});
            } else if (st.find()) {
                real.add(new Change(t, names.indexOf(st.group(1)), st.group(2).equals("DOWN")));
            }
        }
    }

    /**
     * The checks: every check HAProxy logged (it changed the health or the status: its time and result are
     * HAProxy's, whatever the backend answered, as a check may time out or fail to connect), and every check a
     * backend answered that HAProxy did not log (a logged check of the server whose duration, as HAProxy logs it,
     * spans the backend's answer is the same check), in flight from when the backend received it to when it
     * answered, unless HAProxy's log shows that a trip voided it ({@link #voidingTrip}). A check answered after
     * HAProxy's last log line is left out: HAProxy, stopping, may never have read it, and one it read changed
     * neither health nor status (that would have been logged).
     */
    void addChecks(List<List<long[]>> answeredByServer) {
        boolean[] used = new boolean[loggedChecks.size()];
        for (int server = 0; server < answeredByServer.size(); server++) {
            long previous = Long.MIN_VALUE;
            for (long[] c : answeredByServer.get(server)) {
                if (c[0] > lastLogNanos) {
                    continue; // read after HAProxy's last line, or never: it changed nothing HAProxy would log
                }
                boolean logged = false;
                for (int i = 0; i < loggedChecks.size() && !logged; i++) {
                    long[] l = loggedChecks.get(i);
                    if (!used[i] && l[0] == server && c[0] >= l[1] - l[3] - 5_000_000L && c[0] <= l[1] + 1_000_000L) {
                        used[i] = true;
                        logged = true;
                    }
                }
                if (!logged) {
                    steps.add(unloggedCheck(server, c, previous));
                }
                previous = c[0];
            }
        }
        for (long[] l : loggedChecks) {
            steps.add(new Step(l[1], 1, (int) l[0], (int) l[2], l[1]));
        }
    }

    /**
     * A check HAProxy did not log, answered at {@code c[0]} (received at {@code c[2]}), the server's previous check
     * answered at {@code previous}. When a logged trip voided it, it was in flight from before that trip until
     * after the request HAProxy tripped on (the server's first traffic line from the trip on).
     */
    private Step unloggedCheck(int server, long[] c, long previous) {
        int passed = c[1] >= 200 && c[1] < 400 ? 1 : 0;
        HaproxyServer s = detector.server(server);
        long minInterval = s.interNanos();
        for (long v : new long[] {s.fastinterNanos(), s.downinterNanos()}) {
            minInterval = v > 0 ? Math.min(minInterval, v) : minInterval;
        }
        long earliestStart = previous == Long.MIN_VALUE ? Long.MIN_VALUE : previous + minInterval;
        long trip = voidingTrip(server, c[0], earliestStart);
        if (trip == Long.MIN_VALUE) {
            return new Step(c[0], 1, server, passed, c[2]);
        }
        long end = c[0];
        for (Step t : traffic) {
            if (t.server() == server && t.t() >= trip) {
                end = Math.max(end, t.t());
                break;
            }
        }
        return new Step(end + 1, 1, server, passed, Math.min(c[2], trip));
    }

    /**
     * The logged trip that voided a check HAProxy did not log, answered at {@code answered} and started no sooner
     * than {@code earliestStart} (the previous check's answer plus the shortest check interval), or
     * {@code Long.MIN_VALUE}. Two things in HAProxy's log show it: a trip sets the status to "Health analyze" and
     * HAProxy logs every check it reads whose status differs from the one before ({@code set_server_check_status}),
     * so a check unlogged while the last logged status is a trip was never read: the first trip from its earliest
     * start voided it. And a check read inside the run of {@code error-limit} consecutive errors that a logged trip
     * ended would have cleared the run ({@code s->consecutive_errors = 0} for a passed check): an unlogged check
     * answered after the run's first error was still in flight at that trip.
     */
    private long voidingTrip(int server, long answered, long earliestStart) {
        long[] before = null;
        long[] after = null;
        for (long[] l : statusLines) {
            if (l[0] != server) {
                continue;
            }
            if (l[1] <= answered) {
                before = l;
            } else if (after == null) {
                after = l;
            }
        }
        if (before != null && before[2] == 1) {
            for (long[] l : statusLines) {
                if (l[0] == server && l[2] == 1 && l[1] >= earliestStart) {
                    return l[1];
                }
            }
            return Long.MIN_VALUE;
        }
        if (after == null || after[2] == 0) {
            return Long.MIN_VALUE;
        }
        HaproxyServer s = detector.server(server);
        int last = -1;
        for (int i = 0; i < traffic.size() && last < 0; i++) {
            last = traffic.get(i).server() == server && traffic.get(i).t() >= after[1] ? i : -1;
        }
        int errors = 0;
        for (int i = last; i >= 0 && errors < s.errorLimit(); i--) {
            Step t = traffic.get(i);
            if (t.server() != server) {
                continue;
            }
            Observe.Verdict v = s.observe().verdict(t.value());
            if (v == Observe.Verdict.GOOD) {
                return Long.MIN_VALUE;
            }
            if (v == Observe.Verdict.ERROR && ++errors == s.errorLimit()) {
                return t.t() < answered ? after[1] : Long.MIN_VALUE;
            }
        }
        return Long.MIN_VALUE;
    }

    void replay() {
        steps.sort(Comparator.comparingLong(Step::t));
        for (Step s : steps) {
            if (s.kind() == 0) {
                detector.record(s.server(), s.value(), s.t());
            } else {
                detector.applyCheck(s.server(), s.value() == 1, s.start(), s.t());
            }
        }
        compareChanges();
        compareRequests();
    }

    private void compareChanges() {
        Map<Integer, List<Change>> realBy = new HashMap<>();
        for (Change c : real) {
            realBy.computeIfAbsent(c.server(), k -> new ArrayList<>()).add(c);
        }
        Map<Integer, List<Change>> labBy = new HashMap<>();
        for (HaproxyEvent e : events) {
            labBy.computeIfAbsent(e.endpoint(), k -> new ArrayList<>())
                    .add(new Change(e.timeNanos(), e.endpoint(), e.down()));
        }
        for (int s = 0; s < names.size(); s++) {
            List<Change> r = realBy.getOrDefault(s, List.of());
            List<Change> l = labBy.getOrDefault(s, List.of());
            if (r.size() != l.size()) {
                disagreements.add(names.get(s) + ": HAProxy changed it " + r.size() + " times " + describe(r)
                        + ", the lab " + l.size() + " times " + describe(l));
                continue;
            }
            for (int i = 0; i < r.size(); i++) {
                if (r.get(i).down() != l.get(i).down()
                        || Math.abs(r.get(i).t() - l.get(i).t()) > TOLERANCE_NANOS) {
                    disagreements.add(names.get(s) + ": change " + (i + 1) + " HAProxy " + describe(List.of(r.get(i)))
                            + ", lab " + describe(List.of(l.get(i))));
                }
            }
        }
    }

    private static String describe(List<Change> changes) {
        StringBuilder b = new StringBuilder("[");
        for (Change c : changes) {
            b.append(c.down() ? "DOWN@" : "UP@")
                    .append(c.t() / 1_000_000 % 100_000)
                    .append("ms ");
        }
        return b.append("]").toString();
    }

    /** Requests against the lab's state, which is rebuilt from its events. */
    private void compareRequests() {
        int n = names.size();
        for (long[] r : sent) {
            long t = r[0];
            if (nearChange(t)) {
                continue;
            }
            boolean[] down = stateAt(t, n);
            if (r[1] < 0) {
                for (int s = 0; s < n; s++) {
                    if (!down[s]) {
                        disagreements.add("<NOSRV> at " + t / 1_000_000 % 100_000 + "ms while the lab has "
                                + names.get(s) + " UP");
                        break;
                    }
                }
            } else if (down[(int) r[1]]) {
                disagreements.add("request to " + names.get((int) r[1]) + " at " + t / 1_000_000 % 100_000
                        + "ms while the lab has it DOWN");
            }
        }
    }

    private boolean nearChange(long t) {
        for (HaproxyEvent e : events) {
            if (Math.abs(e.timeNanos() - t) <= TOLERANCE_NANOS) {
                return true;
            }
        }
        return false;
    }

    private boolean[] stateAt(long t, int n) {
        boolean[] down = new boolean[n];
        for (HaproxyEvent e : events) {
            if (e.timeNanos() <= t) {
                down[e.endpoint()] = e.down();
            }
        }
        return down;
    }

    long downs() {
        return events.stream().filter(HaproxyEvent::down).count();
    }

    long ups() {
        return events.stream().filter(e -> !e.down()).count();
    }

    /** The lab's check health of a server after the replay. */
    int health(int server) {
        return detector.health(server);
    }

    long voided() {
        return detector.checksVoided();
    }

    long trips() {
        return detector.trips();
    }
}
