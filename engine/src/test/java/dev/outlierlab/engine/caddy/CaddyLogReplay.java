package dev.outlierlab.engine.caddy;

import dev.outlierlab.engine.EjectionState;
import dev.outlierlab.engine.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Replays a real Caddy's JSON log at debug level through the lab's {@link CaddyDetector} and
 * {@link CaddySelection}, and lists every disagreement: an upstream Caddy selected that the lab's policy would
 * not, "no upstreams available" while the lab has one, another number of attempts (retries under
 * {@code lb_try_duration}), another status for the client (the access log's). Caddy forgets each failure in a
 * goroutine woken by a timer, so a little after {@code fail_duration}: a selection that disagrees only because the
 * lab returned the upstream less than {@link #TOLERANCE_NANOS} before is counted in {@code lateForgets}, not as a
 * disagreement.
 */
final class CaddyLogReplay {
    private static final Pattern TS = Pattern.compile("\"ts\":(\\d+)\\.(\\d+)");
    private static final Pattern MSG = Pattern.compile("\"msg\":\"([^\"]*)\"");
    private static final Pattern DIAL = Pattern.compile("\"dial\":\"([^\"]+)\"");
    private static final Pattern UPSTREAM = Pattern.compile("\"upstream\":\"([^\"]+)\"");
    private static final Pattern DURATION = Pattern.compile("\"duration\":([0-9.e-]+)");
    private static final Pattern STATUS = Pattern.compile("\"status\":(\\d{3})");
    private static final Pattern ERROR = Pattern.compile("\"error\":\"([^\"]*)\"");

    final List<String> disagreements = new ArrayList<>();
    final List<CaddyEvent> events = new ArrayList<>();
    int requests;
    int clientErrors;
    int noUpstreams;
    int retries;
    int lateForgets;
    private long previousSelection = Long.MIN_VALUE;

    private final CaddyPassiveConfig config;
    private final CaddyDetector detector;
    private final CaddySelection selection;

    CaddyLogReplay(CaddyPassiveConfig config) {
        this.config = config;
        this.detector = new CaddyDetector(config, events::add);
        this.selection = new CaddySelection(config.policy(), () -> 0);
    }

    void replay(List<String> lines) {
        int attempts = 0;
        long requestStart = -1;
        int labStatus = 0;
        boolean labRetries = false;
        for (String line : lines) {
            String msg = find(MSG, line);
            if (msg == null) {
                continue;
            }
            Matcher ts = TS.matcher(line);
            if (!ts.find()) {
                continue;
            }
            String frac = (ts.group(2) + "000000000").substring(0, 9);
            long t = Long.parseLong(ts.group(1)) * 1_000_000_000L + Long.parseLong(frac);
            switch (msg) {
                case "selected upstream" -> {
                    if (requestStart < 0) {
                        requestStart = t;
                    } else if (!labRetries) {
                        disagreements.add(at(t) + ": Caddy tried again, the lab would not");
                    }
                    attempts++;
                    String dial = find(DIAL, line);
                    int pick = select(t, config.upstreams().indexOf(dial));
                    if (pick < 0 || !config.upstreams().get(pick).equals(dial)) {
                        disagreements.add(at(t) + ": Caddy selected " + dial + ", the lab "
                                + (pick < 0 ? "none" : config.upstreams().get(pick)));
                    }
                }
                case "upstream roundtrip" -> {
                    int host = config.upstreams().indexOf(find(UPSTREAM, line));
                    long latency = (long) (Double.parseDouble(find(DURATION, line)) * 1e9);
                    String error = find(ERROR, line);
                    String status = find(STATUS, line);
                    int outcome = error == null
                            ? Integer.parseInt(status)
                            : error.contains("dial tcp")
                                    ? Outcome.CONNECT_FAILED
                                    : error.contains("timeout") ? Outcome.TIMEOUT : Outcome.RESET;
                    detector.record(host, outcome, latency, t);
                    labStatus = Outcome.isLocal(outcome) ? (outcome == Outcome.TIMEOUT ? 504 : 502) : outcome;
                    labRetries = Outcome.isLocal(outcome) && tryAgain(requestStart, attempts, t);
                    retries += labRetries ? 1 : 0;
                }
                case "no upstreams available" -> {
                    noUpstreams++;
                    if (requestStart < 0) {
                        requestStart = t - (long) (Double.parseDouble(find(DURATION, line)) * 1e9);
                    }
                    int pick = select(t, -1);
                    if (pick >= 0) {
                        disagreements.add(at(t) + ": no upstreams available in Caddy, the lab has "
                                + config.upstreams().get(pick));
                    }
                    labStatus = 503;
                }
                case "handled request" -> {
                    requests++;
                    int status = Integer.parseInt(find(STATUS, line));
                    clientErrors += status >= 500 ? 1 : 0;
                    if (labRetries) {
                        disagreements.add(at(t) + ": the lab would have tried again");
                    }
                    if (labStatus != 0 && status != labStatus) {
                        disagreements.add(at(t) + ": client got " + status + ", the lab says " + labStatus);
                    }
                    attempts = 0;
                    requestStart = -1;
                    labStatus = 0;
                    labRetries = false;
                }
                default -> {}
            }
        }
    }

    /**
     * The lab's selection at {@code t}. When it differs from Caddy's ({@code caddyPick}, -1 for none) only because
     * the lab returned an upstream since the previous selection, that upstream is taken as still out (counted in
     * {@code lateForgets}): Caddy forgets a failure in a goroutine woken by a timer, a little after fail_duration.
     */
    private int select(long t, int caddyPick) {
        detector.runDue(t);
        int pick = selection.select(detector);
        boolean lateForget = pick >= 0 && pick != caddyPick && returnedJustNow(pick, t);
        previousSelection = t;
        if (lateForget) {
            int late = pick;
            lateForgets++;
            pick = selection.select(new EjectionState() {
                @Override
                public int endpointCount() {
                    return detector.endpointCount();
                }

                @Override
                public boolean isEjected(int endpoint) {
                    return endpoint == late || detector.isEjected(endpoint);
                }
            });
        }
        return pick;
    }

    /** Whether the lab returned the upstream after the previous selection: within one request of Caddy's. */
    private boolean returnedJustNow(int host, long t) {
        for (int i = events.size() - 1; i >= 0; i--) {
            CaddyEvent e = events.get(i);
            if (e.endpoint() == host) {
                return !e.eject() && e.timeNanos() > previousSelection;
            }
        }
        return false;
    }

    /** {@code LoadBalancing.tryAgain} for a GET after a failed round trip. */
    private boolean tryAgain(long start, int attempts, long now) {
        if (config.tryDurationNanos() == 0 && config.retries() == 0) {
            return false;
        }
        if (config.tryDurationNanos() > 0 && now - start >= config.tryDurationNanos()) {
            return false;
        }
        return config.retries() == 0 || attempts - 1 < config.retries();
    }

    private static String at(long t) {
        return (t / 1_000_000 % 100_000) + "ms";
    }

    private static String find(Pattern p, String line) {
        Matcher m = p.matcher(line);
        return m.find() ? m.group(1) : null;
    }

    long ejections() {
        return events.stream().filter(CaddyEvent::eject).count();
    }

    long returns() {
        return events.stream().filter(e -> !e.eject()).count();
    }
}
