package dev.outlierlab.cli;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.scenario.DurationText;
import dev.outlierlab.config.scenario.GatewayScenarioFormat;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.engine.profile.Profiles;
import dev.outlierlab.engine.stage.StageMode;
import dev.outlierlab.live.LivePool;
import dev.outlierlab.live.LivePoolBuilder;
import dev.outlierlab.live.httpclient.ByteBudget;
import dev.outlierlab.live.httpclient.FailoverClient;
import dev.outlierlab.live.httpclient.ReverseProxy;
import dev.outlierlab.live.httpclient.StageLog;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code outlier-lab proxy}: a small reverse proxy on loopback over the live failover client, to try the
 * modes on real traffic. The pool is built from the gateway profile's defaults (or Envoy's with
 * {@code --profile envoy}), a settings file and {@code --set}; {@code --mode} switches the mode; stage
 * records go to {@code --stages} as JSON lines; {@code /stats} is the pool in Prometheus text.
 */
@Command(
        name = "proxy",
        mixinStandardHelpOptions = true,
        usageHelpWidth = 110,
        description = {
            "Run a small reverse proxy that routes over upstreams through live outlier detection (127.0.0.1:8090 by default).",
            "Each request goes to the next upstream in round-robin order, through the stage (off, shadow or prod),",
            "and on a failed attempt to the next candidate; GET /stats is the pool in Prometheus text.",
            ""
        },
        footer = {
            "",
            "Examples:",
            "  outlier-lab proxy --upstream a=http://127.0.0.1:9001 --upstream b=http://127.0.0.1:9002",
            "  outlier-lab proxy --upstream a=... --upstream b=... --mode shadow --stages stages.jsonl",
            "  outlier-lab proxy --profile envoy --set outlier_detection.consecutive_5xx=3 --upstream a=... --upstream b=...",
            "",
            "Settings are a scenario document as run reads it: --profile gateway (the default without --settings) takes",
            "its gateway: keys (mode, window, bucket, min_requests, stdev_factor, peer_set, min_stdev,",
            "consecutive_failures, ejection_time); envoy takes outlier_detection and cluster.panic_threshold.",
            "A settings file's own profile: key applies unless --profile is given; --set KEY=VALUE comes last.",
            "The proxy binds 127.0.0.1 unless --host says otherwise, and answers only requests whose Host names it (403",
            "otherwise, /stats included; --allow-host adds a name) and that carry no foreign Origin. Bound to another",
            "address it is an open relay to the upstreams and /stats is public: put it behind a firewall or an",
            "authenticating proxy. Limits (docs/limits.md): request bodies over 1 MiB get 413, a client has 3 s for its",
            "request, each attempt is bounded by --timeout, --threads requests call upstreams at once, a client address",
            "has at most --client-connections connections and --per-client requests in the proxy, answers held at",
            "once are bounded by --max-buffered-bytes.",
            "Exit status 2 on bad input or a taken port, and when stage records could not be written to --stages."
        })
public final class ProxyCommand implements Callable<Integer> {
    /** The profile of a proxy without --profile or a settings file. */
    private static final String DEFAULT_PROFILE = GatewayScenarioFormat.NAME;

    @Spec
    CommandSpec spec;

    @Option(
            names = "--upstream",
            paramLabel = "NAME=URL",
            required = true,
            description =
                    "An upstream, in routing order (repeat for each; at least one), e.g. a=http://127.0.0.1:9001.")
    List<String> upstreams = new ArrayList<>();

    @Option(
            names = "--profile",
            paramLabel = "PROFILE",
            description = "gateway (seed 004's rules; the default without a settings file) or envoy.")
    String profile;

    @Option(
            names = "--settings",
            paramLabel = "FILE",
            description =
                    "A scenario file: its profile, gateway: or outlier_detection: and cluster.panic_threshold apply.")
    Path settingsFile;

    @Option(
            names = "--set",
            paramLabel = "KEY=VALUE",
            description =
                    "Override one setting (repeatable): gateway.ejection_time=10s, outlier_detection.consecutive_5xx=3.")
    List<String> sets = new ArrayList<>();

    @Option(names = "--mode", paramLabel = "MODE", description = "off, shadow or prod (default: the settings', prod).")
    String mode;

    @Option(names = "--stages", paramLabel = "FILE", description = "Append every stage record to FILE as JSON lines.")
    Path stagesFile;

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

    @Option(
            names = "--host",
            paramLabel = "ADDRESS",
            defaultValue = "127.0.0.1",
            description = "Address to listen on (default ${DEFAULT-VALUE}: this machine only).")
    String host;

    @Option(
            names = "--port",
            paramLabel = "PORT",
            defaultValue = "8090",
            description = "Port to listen on (default ${DEFAULT-VALUE}); 0 picks a free port and prints it.")
    int port;

    final CountDownLatch stopped = new CountDownLatch(1);
    volatile ReverseProxy proxy;
    volatile LivePool pool;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (port < 0 || port > 65_535) {
            throw new ParameterException(
                    spec.commandLine(), "--port: " + port + " is not a port; use 1 to 65535, or 0 for any free port");
        }
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
        if (threads < 1 || threads > 4096) {
            throw new ParameterException(
                    spec.commandLine(), "--threads: " + threads + " is not allowed; use 1 to 4096");
        }
        if (maxBufferedBytes < maxResponseBytes || maxBufferedBytes > (1L << 40)) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--max-buffered-bytes: " + maxBufferedBytes + " is not allowed; use --max-response-bytes ("
                            + maxResponseBytes + ") to " + (1L << 40));
        }
        if (perClient < 1 || perClient > 100_000) {
            throw new ParameterException(
                    spec.commandLine(), "--per-client: " + perClient + " is not allowed; use 1 to 100000");
        }
        if (clientConnections < 1 || clientConnections > ReverseProxy.MAX_CONNECTIONS) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--client-connections: " + clientConnections + " is not allowed; use 1 to "
                            + ReverseProxy.MAX_CONNECTIONS);
        }
        InetSocketAddress bound = new InetSocketAddress(host, 0);
        if (bound.isUnresolved()) {
            err.println("outlier-lab: --host: " + dev.outlierlab.config.Wording.printable(shortPrefix(host))
                    + " is not a known address; use 127.0.0.1 (the default) or 0.0.0.0");
            return Main.EXIT_BAD_INPUT;
        }
        for (String name : allowedHosts) {
            if (!name.matches("[A-Za-z0-9.\\-]{1,253}(:[0-9]{1,5})?|\\[[0-9A-Fa-f:.]{2,45}\\](:[0-9]{1,5})?")) {
                throw new InputException(
                        "--allow-host: \"" + shortPrefix(name) + "\" is not a host name (letters, digits, "
                                + "dots and dashes, or [IPv6], with an optional :PORT)");
            }
        }
        Map<String, URI> targets = parseUpstreams();
        Duration attemptTimeout = parseTimeout();
        StageMode modeOverride = mode == null ? null : StageMode.parse("--mode", mode);
        LivePoolBuilder builder = builder();
        if (modeOverride != null) {
            builder.mode(modeOverride);
        }
        StageLog stageLog = openStageLog();
        pool = builder.build().start();
        if (stageLog != null) {
            pool.addListener(stageLog);
        }
        FailoverClient client = FailoverClient.builder(pool)
                .attemptTimeout(attemptTimeout)
                .fallbacks(fallbacks)
                .maxResponseBytes(maxResponseBytes)
                .forwardHost(preserveHost)
                .build();
        targets.forEach(client::addUpstream);
        try {
            StageLog lostCounter = stageLog;
            proxy = ReverseProxy.start(
                    client,
                    host,
                    port,
                    new ReverseProxy.Settings(
                            threads,
                            perClient,
                            allowedHosts,
                            () -> lostCounter == null ? 0 : lostCounter.lost(),
                            new ByteBudget(maxBufferedBytes),
                            clientConnections));
        } catch (BindException e) {
            pool.close();
            err.println("outlier-lab: cannot listen on " + host + ":" + port + ": " + e.getMessage()
                    + "; choose another port with --port, or --port 0 for any free port");
            return Main.EXIT_BAD_INPUT;
        } catch (IOException e) {
            pool.close();
            throw new UncheckedIOException("cannot start the proxy on " + host + ":" + port, e);
        }
        Thread hook = new Thread(this::stop, "outlier-lab-proxy-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        out.println("outlier-lab: proxy at " + proxy.uri() + " over " + String.join(", ", targets.keySet()) + " ("
                + pool.profile() + " profile, mode " + pool.mode().configName() + "); stats at " + proxy.uri()
                + "stats (Ctrl-C to stop)");
        out.flush();
        String warning = exposureWarning(bound.getAddress(), host);
        if (warning != null) {
            err.println(warning);
            err.flush();
        }
        Thread lossWatch = stageLog == null ? null : watchLosses(stageLog, err);
        stopped.await();
        if (lossWatch != null) {
            lossWatch.interrupt();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // The JVM is exiting: the hook has stopped the proxy already.
        }
        if (stageLog != null) {
            try {
                stageLog.close();
            } catch (IOException ignored) {
                // A failed flush was counted when the record was written.
            }
            if (stageLog.lost() > 0) {
                err.println("outlier-lab: --stages " + stagesFile + ": " + stageLog.lost() + " stage record"
                        + (stageLog.lost() == 1 ? "" : "s") + " could not be written ("
                        + stageLog.firstError().getMessage()
                        + ")");
                return Main.EXIT_BAD_INPUT;
            }
        }
        return 0;
    }

    /** The loud warning for a proxy bound to an address other than loopback, or null. */
    static String exposureWarning(java.net.InetAddress address, String host) {
        if (address.isLoopbackAddress()) {
            return null;
        }
        return "outlier-lab: WARNING: the proxy listens on " + host + ", not on loopback: anyone who can reach "
                + "this address can send requests through it to the upstreams (an open relay) and read /stats. Put "
                + "a firewall or an authenticating proxy in front of it, or bind 127.0.0.1 (see docs/limits.md).";
    }

    /** Says on standard error, at once, when the first stage record is lost (the count is in /stats). */
    private Thread watchLosses(StageLog log, PrintWriter err) {
        Thread t = new Thread(
                () -> {
                    try {
                        while (log.lost() == 0) {
                            Thread.sleep(200);
                        }
                        err.println("outlier-lab: --stages " + stagesFile + ": cannot write stage records ("
                                + log.firstError().getMessage()
                                + "); they are counted as outlier_lab_proxy_stage_records_lost in "
                                + "/stats and the proxy will exit with status 2");
                        err.flush();
                    } catch (InterruptedException stop) {
                        // the proxy has stopped
                    }
                },
                "outlier-lab-proxy-stage-losses");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static String shortPrefix(String s) {
        return dev.outlierlab.config.Wording.shortPrefix(s);
    }

    /**
     * The pool from a scenario document of either profile (the lab's own reader): the settings file if any,
     * then {@code --profile} (gateway when neither it nor a file says otherwise), then {@code --set}.
     */
    private LivePoolBuilder builder() {
        List<String> all = new ArrayList<>();
        if (profile != null
                && Profiles.find(profile).flatMap(p -> p.facet(ProxyPool.class)).isEmpty()) {
            throw new InputException("--profile: \"" + profile + "\" is not allowed; use " + proxyProfiles());
        }
        if (profile != null) {
            all.add("profile=" + profile);
        } else if (settingsFile == null) {
            all.add("profile=" + DEFAULT_PROFILE);
        }
        all.addAll(sets);
        ScenarioReader.Profiled read = settingsFile == null
                ? ScenarioReader.defaultsProfiled(all)
                : ScenarioReader.readProfiled(InputFiles.readText(settingsFile), settingsFile.toString(), all);
        return read.profile()
                .facet(ProxyPool.class)
                .orElseThrow(() -> new InputException((settingsFile == null ? "--set" : settingsFile.toString())
                        + ": profile " + read.name() + " has no live pool; use "
                        + proxyProfiles()))
                .builder("proxy", read);
    }

    /** The profiles a proxy can run, its default first: {@code gateway or envoy}. */
    private static String proxyProfiles() {
        List<String> names = new ArrayList<>(List.of(DEFAULT_PROFILE));
        Profiles.withFacet(ProxyPool.class).stream()
                .map(p -> p.name())
                .filter(n -> !n.equals(DEFAULT_PROFILE))
                .forEach(names::add);
        return Profiles.orList(names);
    }

    private Map<String, URI> parseUpstreams() {
        Map<String, URI> targets = new LinkedHashMap<>();
        if (upstreams.size() > 1000) {
            throw new InputException("--upstream: " + upstreams.size() + " upstreams; at most 1000");
        }
        for (String u : upstreams) {
            int eq = u.indexOf('=');
            String name = eq > 0 ? u.substring(0, eq).trim() : "";
            String url = eq > 0 ? u.substring(eq + 1).trim() : "";
            URI uri;
            try {
                uri = URI.create(url);
            } catch (IllegalArgumentException e) {
                uri = null;
            }
            if (name.isEmpty()
                    || uri == null
                    || uri.getHost() == null
                    || !("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))) {
                throw new InputException("--upstream: \"" + u + "\" is not NAME=URL with an http or https URL, "
                        + "e.g. a=http://127.0.0.1:9001");
            }
            if (targets.put(name, uri) != null) {
                throw new InputException(
                        "--upstream: the name " + name + " is given twice; each upstream needs its own name");
            }
        }
        return targets;
    }

    private Duration parseTimeout() {
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

    private StageLog openStageLog() {
        if (stagesFile == null) {
            return null;
        }
        try {
            return new StageLog(Files.newBufferedWriter(
                    stagesFile, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND));
        } catch (IOException e) {
            throw new InputException("--stages: cannot write " + stagesFile + ": " + e.getMessage());
        }
    }

    /** Stops serving and lets {@link #call()} return. */
    void stop() {
        ReverseProxy p = proxy;
        if (p != null) {
            p.close();
        }
        LivePool l = pool;
        if (l != null) {
            l.close();
        }
        stopped.countDown();
    }
}
