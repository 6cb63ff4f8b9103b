package dev.outlierlab.cli;

import dev.outlierlab.config.InputException;
import dev.outlierlab.live.httpclient.ReverseProxy;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.TrafficSpec;
import dev.outlierlab.tune.TuneRequest;
import dev.outlierlab.web.LabServer;
import java.util.Map;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * What each numeric option of each command allows, in words: the range its command checks, which a value that is not
 * a number is told too ({@code tune --rps abc}: {@code expected 1 to 10000000 requests per second}), so that both
 * messages of an option say the same range. An option of one command only is listed under that command; one that
 * several commands share under its name, unless a command allows another range.
 */
final class OptionRanges {
    /** run's, sweep's and export's {@code --hosts} (a scenario's {@code cluster.hosts}). */
    static final String HOSTS = "a whole number of hosts from 1 to " + ClusterSpec.MAX_HOSTS;
    /** run's, sweep's and export's {@code --rps} (a scenario's {@code traffic.rps}). */
    static final String RPS = "a whole number of requests per second from 1 to " + TrafficSpec.MAX_RPS;
    /** run's, sweep's and export's {@code --clients} (a scenario's {@code traffic.clients}). */
    static final String CLIENTS =
            "a whole number of callers from 1 to " + TrafficSpec.MAX_CLIENTS + " (and at most traffic.rps)";
    /** run's and replay's {@code --events}. */
    static final String EVENTS = "0 (counts only) or more decisions to show, up to " + Integer.MAX_VALUE;
    /** A port to listen on ({@code serve}, {@code proxy}). */
    static final String LISTEN_PORT = "1 to 65535, or 0 for any free port";

    /** Options several commands share, by name. */
    private static final Map<String, String> SHARED = Map.of(
            "--hosts", HOSTS,
            "--rps", RPS,
            "--clients", CLIENTS,
            "--port", "a port number from 1 to 65535 (the DestinationRule's portLevelSettings port)",
            "--events", EVENTS,
            "--parallelism", "1 to 32768 (Flink's bound; 1 to 64 on the local MiniCluster)");

    /** Options one command has, or allows another range of, by command and name. */
    private static final Map<String, String> OWN = Map.ofEntries(
            Map.entry("check --hosts", "1 to " + CheckCommand.MAX_HOSTS),
            Map.entry("check --rps", "1 or more, up to " + Long.MAX_VALUE),
            Map.entry("check --clients", "a whole number of callers from 1 to " + TrafficSpec.MAX_CLIENTS),
            Map.entry("tune --hosts", TuneRequest.HOSTS_RANGE),
            Map.entry("tune --rps", TuneRequest.RPS_RANGE),
            Map.entry("tune --clients", "1 to " + TuneRequest.MAX_CLIENTS + " callers (at most --rps)"),
            Map.entry("tune --seeds", "1 to " + TuneRequest.MAX_SEEDS),
            Map.entry("tune --max-ejected", "1 to the number of hosts"),
            Map.entry("tune --max-false-per-day", "0 to 1000000 false ejections a day"),
            Map.entry("tune --max-added-failures", "0 to 1000 failed requests per 1,000"),
            Map.entry("serve --port", LISTEN_PORT),
            Map.entry("serve --client-connections", "1 to " + LabServer.MAX_CONNECTIONS),
            Map.entry("proxy --port", LISTEN_PORT),
            Map.entry("proxy --client-connections", "1 to " + ReverseProxy.MAX_CONNECTIONS),
            Map.entry("proxy --fallbacks", "0 to 100"),
            Map.entry(
                    "proxy --max-response-bytes",
                    "1 to " + (Integer.MAX_VALUE - 8) + " (bytes held in memory per" + " answer)"),
            Map.entry("proxy --threads", "1 to " + ProxyLimits.MAX_THREADS),
            Map.entry("proxy --max-buffered-bytes", "--max-response-bytes to " + (1L << 40)),
            Map.entry("proxy --per-client", "1 to " + ProxyLimits.MAX_PER_CLIENT));

    private OptionRanges() {}

    /** Refuses a negative {@code --events} of run or replay. */
    static void refuseNegativeEvents(int maxEvents) {
        if (maxEvents < 0) {
            throw new InputException("--events: " + maxEvents + " is not allowed; expected " + EVENTS);
        }
    }

    /** What {@code arg} of {@code command} allows, or null when it is not a numeric option listed here. */
    static String of(CommandSpec command, ArgSpec arg) {
        if (command == null || !(arg instanceof OptionSpec option)) {
            return null;
        }
        String own = OWN.get(command.name() + " " + option.longestName());
        return own != null ? own : SHARED.get(option.longestName());
    }
}
