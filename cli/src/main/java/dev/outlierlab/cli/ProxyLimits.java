package dev.outlierlab.cli;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.Wording;
import dev.outlierlab.config.scenario.DurationText;
import dev.outlierlab.live.LivePool;
import dev.outlierlab.live.httpclient.ByteBudget;
import dev.outlierlab.live.httpclient.FailoverClient;
import dev.outlierlab.live.httpclient.ReverseProxy;
import dev.outlierlab.live.httpclient.StageLog;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * How {@code proxy} forwards and what it holds: attempts, their timeout, the bytes of answers, the requests and
 * connections of one client, the names accepted in Host. Each bound is checked before the proxy starts.
 */
public final class ProxyLimits {
    /** The most threads {@code --threads} may give the proxy. */
    static final int MAX_THREADS = 4096;
    /** The most requests {@code --per-client} may allow one client. */
    static final int MAX_PER_CLIENT = 100_000;

    @Option(
            names = "--fallbacks",
            paramLabel = "N",
            defaultValue = "1",
            description = "Further candidates tried after a failed attempt (default ${DEFAULT-VALUE}).")
    int fallbacks;

    @Option(
            names = "--timeout",
            paramLabel = "DURATION",
            defaultValue = "10s",
            description = "Bound on each attempt, e.g. 2s or 500ms (default ${DEFAULT-VALUE}).")
    String timeout;

    @Option(
            names = "--max-response-bytes",
            paramLabel = "N",
            defaultValue = "16777216",
            description = "Largest upstream answer held and passed on; a larger one is a 502 with a message "
                    + "(default ${DEFAULT-VALUE}, 16 MiB).")
    long maxResponseBytes;

    @Option(
            names = "--threads",
            paramLabel = "N",
            defaultValue = "" + ReverseProxy.DEFAULT_THREADS,
            description = "Requests handled at once; a slow client holds one until its timeout "
                    + "(default ${DEFAULT-VALUE}).")
    int threads;

    @Option(
            names = "--max-buffered-bytes",
            paramLabel = "N",
            defaultValue = "268435456",
            description =
                    "Bytes of upstream answers held at once; a request past it gets a 503 and is recorded against "
                            + "no upstream (default ${DEFAULT-VALUE}, 256 MiB).")
    long maxBufferedBytes;

    @Option(
            names = "--per-client",
            paramLabel = "N",
            defaultValue = "" + ReverseProxy.DEFAULT_PER_CLIENT,
            description =
                    "Requests of one client address in the proxy at once; more get a 429 (default ${DEFAULT-VALUE}).")
    int perClient;

    @Option(
            names = "--client-connections",
            paramLabel = "N",
            defaultValue = "" + ReverseProxy.DEFAULT_CLIENT_CONNECTIONS,
            description = "Open connections of one client address; more are closed as soon as they are accepted "
                    + "(default ${DEFAULT-VALUE}; " + ReverseProxy.MAX_CONNECTIONS + " in all).")
    int clientConnections;

    @Option(
            names = "--allow-host",
            paramLabel = "NAME",
            description = "Also accept this name in Host (repeatable), e.g. the machine's name when bound with --host.")
    List<String> allowedHosts = new ArrayList<>();

    @Option(
            names = "--preserve-host",
            description = "Send the client's Host header to the upstream instead of the upstream's own name.")
    boolean preserveHost;

    /** Refuses a bound out of its range, with one message naming it and the range. */
    void check(CommandSpec spec) {
        if (fallbacks < 0 || fallbacks > 100) {
            throw new ParameterException(
                    spec.commandLine(), "--fallbacks: " + fallbacks + " is not allowed; use 0 to 100");
        }
        if (maxResponseBytes < 1 || maxResponseBytes > Integer.MAX_VALUE - 8) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--max-response-bytes: " + maxResponseBytes + " is not allowed; use 1 to " + (Integer.MAX_VALUE - 8)
                            + " (bytes held in memory per answer)");
        }
        if (threads < 1 || threads > MAX_THREADS) {
            throw new ParameterException(
                    spec.commandLine(), "--threads: " + threads + " is not allowed; use 1 to " + MAX_THREADS);
        }
        if (maxBufferedBytes < maxResponseBytes || maxBufferedBytes > (1L << 40)) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--max-buffered-bytes: " + maxBufferedBytes + " is not allowed; use --max-response-bytes ("
                            + maxResponseBytes + ") to " + (1L << 40));
        }
        if (perClient < 1 || perClient > MAX_PER_CLIENT) {
            throw new ParameterException(
                    spec.commandLine(), "--per-client: " + perClient + " is not allowed; use 1 to " + MAX_PER_CLIENT);
        }
        if (clientConnections < 1 || clientConnections > ReverseProxy.MAX_CONNECTIONS) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--client-connections: " + clientConnections + " is not allowed; use 1 to "
                            + ReverseProxy.MAX_CONNECTIONS);
        }
    }

    /** Refuses a name of --allow-host that is not a host name. */
    void checkHostNames() {
        for (String name : allowedHosts) {
            if (!name.matches("[A-Za-z0-9.\\-]{1,253}(:[0-9]{1,5})?|\\[[0-9A-Fa-f:.]{2,45}\\](:[0-9]{1,5})?")) {
                throw new InputException(
                        "--allow-host: \"" + Wording.shortPrefix(name) + "\" is not a host name (letters, digits, "
                                + "dots and dashes, or [IPv6], with an optional :PORT)");
            }
        }
    }

    /** The failover client over {@code pool} with these bounds. */
    FailoverClient client(LivePool pool) {
        return FailoverClient.builder(pool)
                .attemptTimeout(attemptTimeout())
                .fallbacks(fallbacks)
                .maxResponseBytes(maxResponseBytes)
                .forwardHost(preserveHost)
                .build();
    }

    /** The proxy's settings, the stage records lost counted from {@code stageLog} (or none). */
    ReverseProxy.Settings settings(StageLog stageLog) {
        return new ReverseProxy.Settings(
                threads,
                perClient,
                allowedHosts,
                () -> stageLog == null ? 0 : stageLog.lost(),
                new ByteBudget(maxBufferedBytes),
                clientConnections);
    }

    /** {@code --timeout} as a duration, from 1 ms to 300 s. */
    Duration attemptTimeout() {
        long nanos;
        try {
            nanos = DurationText.parse(timeout);
        } catch (IllegalArgumentException e) {
            throw new InputException("--timeout: \"" + timeout + "\" is not allowed; use " + e.getMessage());
        }
        if (nanos < 1_000_000L || nanos > 300_000_000_000L) {
            throw new InputException("--timeout: \"" + timeout + "\" is not allowed; use 1ms to 300s");
        }
        return Duration.ofNanos(nanos);
    }
}
