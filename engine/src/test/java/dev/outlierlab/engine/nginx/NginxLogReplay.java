package dev.outlierlab.engine.nginx;

import dev.outlierlab.engine.Outcome;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Replays a real nginx's access log (format {@link #LOG_FORMAT}) through the lab's {@link NginxDetector}s, one per
 * worker process ({@code $pid}) or one for all with {@code zone}, and lists every disagreement: a request sent to
 * another server than the lab selects, a different number of attempts, a different status for the client, and
 * ejections that the error log's "upstream server temporarily disabled" lines do not match (per server, each
 * within nginx's one-second clock).
 *
 * <p>{@code $upstream_status} says 502 for a connection error and 504 for a timeout: the scripted backends never
 * answer those two statuses, so they are read as {@link Outcome#CONNECT_FAILED} and {@link Outcome#TIMEOUT}.
 */
final class NginxLogReplay {
    static final String LOG_FORMAT =
            "'$msec $pid $request_time \"$upstream_addr\" \"$upstream_status\" \"$upstream_response_time\" $status'";
    private static final Pattern LINE = Pattern.compile(
            "(\\d+)\\.(\\d{3}) (\\d+) (\\d+)\\.(\\d{3}) \"([^\"]*)\" \"([^\"]*)\" \"([^\"]*)\" (\\d{3})");
    private static final Pattern DISABLED = Pattern.compile(
            "^(\\d{4}/\\d\\d/\\d\\d \\d\\d:\\d\\d:\\d\\d) \\[warn\\] (\\d+)#.*upstream server temporarily disabled"
                    + ".*upstream: \"http://([^/\"]+)/");
    private static final DateTimeFormatter ERROR_TIME = DateTimeFormatter.ofPattern("yyyy/MM/dd HH:mm:ss");

    final List<String> disagreements = new ArrayList<>();
    final List<NginxEvent> events = new ArrayList<>();
    int requests;
    int attempts;
    int clientErrors;
    int noLive;

    private final NginxUpstreamConfig config;
    private final Map<String, NginxDetector> byPid = new LinkedHashMap<>();
    private final Map<String, Integer> index = new HashMap<>();

    NginxLogReplay(NginxUpstreamConfig config) {
        this.config = config;
        List<String> hosts = config.hosts();
        for (int i = 0; i < hosts.size(); i++) {
            index.put(hosts.get(i), i);
        }
    }

    private NginxDetector detector(String pid) {
        String key = config.zone() ? "zone" : pid;
        return byPid.computeIfAbsent(key, k -> new NginxDetector(config, byPid.size(), events::add));
    }

    void replay(List<String> accessLog) {
        for (String line : accessLog) {
            Matcher m = LINE.matcher(line);
            if (!m.find()) {
                continue;
            }
            long endMillis = Long.parseLong(m.group(1)) * 1000 + Long.parseLong(m.group(2));
            long tookMillis = Long.parseLong(m.group(4)) * 1000 + Long.parseLong(m.group(5));
            long startNanos = (endMillis - tookMillis) * 1_000_000L;
            String[] addrs = m.group(6).split(", ");
            String[] statuses = m.group(7).split(", ");
            int status = Integer.parseInt(m.group(9));
            String[] took = m.group(8).split(", ");
            requests++;
            clientErrors += status >= 500 ? 1 : 0;
            NginxDetector d = detector(m.group(3));
            boolean busyLogged = !index.containsKey(addrs[addrs.length - 1]);
            int logged = busyLogged ? addrs.length - 1 : addrs.length;
            String where = "request at " + endMillis + " (" + m.group(6) + " / " + m.group(7) + ")";
            int labStatus = d.request(startNanos, new NginxDetector.Attempts() {
                @Override
                public int outcome(int peer, int attempt) {
                    if (attempt >= logged) {
                        disagreements.add(
                                where + ": lab tried " + config.hosts().get(peer) + " as attempt " + (attempt + 1));
                        return Outcome.CONNECT_FAILED;
                    }
                    if (!addrs[attempt].equals(config.hosts().get(peer))) {
                        disagreements.add(where + ": attempt " + (attempt + 1) + " lab selects "
                                + config.hosts().get(peer));
                    }
                    return NginxLogReplay.outcome(Integer.parseInt(statuses[attempt].trim()));
                }

                @Override
                public long durationNanos(int attempt) {
                    return attempt < took.length ? millis(took[attempt]) * 1_000_000L : 0;
                }
            });
            attempts += d.lastAttempts();
            if (labStatus == NginxDetector.NO_LIVE_UPSTREAMS && d.lastAttempts() == 0) {
                noLive++;
            }
            if (d.lastAttempts() != logged) {
                disagreements.add(where + ": lab made " + d.lastAttempts() + " attempts");
            }
            if (labStatus != status) {
                disagreements.add(where + ": client got " + status + ", lab says " + labStatus);
            }
        }
    }

    private static long millis(String seconds) {
        String[] parts = seconds.trim().split("\\.");
        return parts.length == 2 ? Long.parseLong(parts[0]) * 1000 + Long.parseLong(parts[1]) : 0;
    }

    private static int outcome(int upstreamStatus) {
        return switch (upstreamStatus) {
            case 502 -> Outcome.CONNECT_FAILED;
            case 504 -> Outcome.TIMEOUT;
            default -> upstreamStatus;
        };
    }

    /** Compares the lab's ejections with the error log's "temporarily disabled" lines, server by server. */
    void compareEjections(List<String> errorLog) {
        Map<String, List<Long>> real = new HashMap<>();
        for (String line : errorLog) {
            Matcher m = DISABLED.matcher(line);
            if (m.find()) {
                long sec = LocalDateTime.parse(m.group(1), ERROR_TIME)
                        .atZone(ZoneId.systemDefault())
                        .toEpochSecond();
                real.computeIfAbsent(m.group(3), k -> new ArrayList<>()).add(sec);
            }
        }
        Map<String, List<Long>> lab = new HashMap<>();
        for (NginxEvent e : events) {
            if (e.action() == NginxEvent.Action.EJECT) {
                lab.computeIfAbsent(e.endpointName(), k -> new ArrayList<>()).add(e.timeNanos() / 1_000_000_000L);
            }
        }
        for (String host : config.hosts()) {
            List<Long> r = real.getOrDefault(host, List.of());
            List<Long> l = lab.getOrDefault(host, List.of());
            if (r.size() != l.size()) {
                disagreements.add(host + ": nginx disabled it " + r.size() + " times at " + r + ", the lab " + l.size()
                        + " times at " + l);
                continue;
            }
            List<Long> sortedR = new ArrayList<>(r);
            List<Long> sortedL = new ArrayList<>(l);
            sortedR.sort(null);
            sortedL.sort(null);
            for (int i = 0; i < sortedR.size(); i++) {
                if (Math.abs(sortedR.get(i) - sortedL.get(i)) > 1) {
                    disagreements.add(host + ": ejection " + (i + 1) + " at second " + sortedR.get(i) + " in nginx, "
                            + sortedL.get(i) + " in the lab");
                }
            }
        }
    }

    long ejections() {
        return events.stream()
                .filter(e -> e.action() == NginxEvent.Action.EJECT)
                .count();
    }

    long returns() {
        return events.stream()
                .filter(e -> e.action() == NginxEvent.Action.UNEJECT)
                .count();
    }

    int workersSeen() {
        return byPid.size();
    }
}
