package dev.outlierlab.engine.haproxy;

import dev.outlierlab.engine.Outcome;
import java.time.OffsetDateTime;
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
 * {@code option log-health-checks} lines and the "Server be/NAME is DOWN / UP" lines, and the health checks each
 * scripted backend answered (time and status). The lab is fed, in time order, every traffic outcome, every check a
 * backend answered (passed for 2xx and 3xx) and every check HAProxy logged as a Layer4 failure (those never reached
 * a backend). Compared: each DOWN and UP, server by server, in order and within {@link #TOLERANCE_NANOS}; each
 * request sent to a server the lab has UP (away from a change by more than the tolerance); each {@code <NOSRV>}
 * answered while the lab has every server DOWN.
 */
final class HaproxyLogReplay {
    static final String LOG_FORMAT = "\"T %s %ST %ts\"";
    static final long TOLERANCE_NANOS = 20_000_000L;
    private static final Pattern LINE = Pattern.compile("^<\\d+>1 (\\S+) \\S+ haproxy \\d+ - - (.*)$");
    private static final Pattern TRAFFIC = Pattern.compile("^T (\\S+) (-?\\d+) (\\S\\S)");
    private static final Pattern ANY_CHECK = Pattern.compile(
            "^Health check for server be/(\\S+) (succeeded|failed), reason: Layer[47].*check duration: (\\d+)ms");
    private static final Pattern STATE = Pattern.compile("^Server be/(\\S+) is (DOWN|UP)");

    private record Step(long t, int kind, int server, int value) {}

    private record Change(long t, int server, boolean down) {}

    final List<String> disagreements = new ArrayList<>();
    final List<HaproxyEvent> events = new ArrayList<>();
    int requests;
    int clientErrors;
    int noServer;

    private final List<String> names;
    private final HaproxyDetector detector;
    private final List<Step> steps = new ArrayList<>();
    private final List<Change> real = new ArrayList<>();
    private final List<long[]> sent = new ArrayList<>();
    /** Active checks HAProxy logged (those that changed the health): server, HAProxy's time, 1 if passed. */
    private final List<long[]> loggedChecks = new ArrayList<>();

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
            String msg = m.group(2);
            Matcher tr = TRAFFIC.matcher(msg);
            Matcher st = STATE.matcher(msg);
            Matcher any = ANY_CHECK.matcher(msg);
            if (any.find()) {
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
                String term = tr.group(3);
                int outcome = term.charAt(0) == 's' && term.charAt(1) == 'C'
                        ? Outcome.CONNECT_FAILED
                        : term.charAt(0) == 's' && term.charAt(1) == 'H' ? Outcome.TIMEOUT : status;
                steps.add(new Step(t, 0, server, outcome));
                sent.add(new long[] {t, server});
            } else if (st.find()) {
                real.add(new Change(t, names.indexOf(st.group(1)), st.group(2).equals("DOWN")));
            }
        }
    }

    /**
     * The checks: every check HAProxy logged (it changed the health: its time and result are HAProxy's, whatever
     * the backend answered, as a check may time out or fail to connect), and every check a backend answered that
     * HAProxy did not log (a logged check of the server whose duration, as HAProxy logs it, spans the backend's
     * answer is the same check): passes at full health, which only clear the error count, at the backend's time.
     */
    void addChecks(List<List<long[]>> answeredByServer) {
        boolean[] used = new boolean[loggedChecks.size()];
        for (int server = 0; server < answeredByServer.size(); server++) {
            for (long[] c : answeredByServer.get(server)) {
                boolean logged = false;
                for (int i = 0; i < loggedChecks.size() && !logged; i++) {
                    long[] l = loggedChecks.get(i);
                    if (!used[i] && l[0] == server && c[0] >= l[1] - l[3] - 5_000_000L && c[0] <= l[1] + 1_000_000L) {
                        used[i] = true;
                        logged = true;
                    }
                }
                if (!logged) {
                    steps.add(new Step(c[0], 1, server, c[1] >= 200 && c[1] < 400 ? 1 : 0));
                }
            }
        }
        for (long[] l : loggedChecks) {
            steps.add(new Step(l[1], 1, (int) l[0], (int) l[2]));
        }
    }

    void replay() {
        steps.sort(Comparator.comparingLong(Step::t));
        for (Step s : steps) {
            if (s.kind() == 0) {
                detector.record(s.server(), s.value(), s.t());
            } else {
                detector.applyCheck(s.server(), s.value() == 1, s.t());
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

    long trips() {
        return detector.trips();
    }
}
