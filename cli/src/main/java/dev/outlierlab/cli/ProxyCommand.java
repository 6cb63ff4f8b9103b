package dev.outlierlab.cli;

import dev.outlierlab.config.Wording;
import dev.outlierlab.engine.stage.StageMode;
import dev.outlierlab.live.LivePool;
import dev.outlierlab.live.LivePoolBuilder;
import dev.outlierlab.live.httpclient.FailoverClient;
import dev.outlierlab.live.httpclient.ReverseProxy;
import dev.outlierlab.live.httpclient.StageLog;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
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
            "",
            "Each request goes to the next upstream in round-robin order, through the stage (off, shadow"
                    + " or prod), and on a failed attempt to the next candidate; GET /stats is the pool in"
                    + " Prometheus text.",
            ""
        },
        footer = {
            "",
            "Examples:",
            "  outlier-lab proxy --upstream a=http://127.0.0.1:9001 \\",
            "    --upstream b=http://127.0.0.1:9002",
            "  outlier-lab proxy --upstream a=... --upstream b=... --mode shadow \\",
            "    --stages stages.jsonl",
            "  outlier-lab proxy --profile envoy --set outlier_detection.consecutive_5xx=3 \\",
            "    --upstream a=... --upstream b=...",
            "",
            "Settings are a scenario document as run reads it: --profile gateway (the default without"
                    + " --settings) takes its gateway: keys (mode, window, bucket, min_requests, stdev_factor,"
                    + " peer_set, min_stdev, consecutive_failures, ejection_time); envoy takes outlier_detection"
                    + " and cluster.panic_threshold. A settings file's own profile: key applies unless --profile is"
                    + " given; --set KEY=VALUE comes last.",
            "",
            "The proxy binds 127.0.0.1 unless --host says otherwise, and answers only requests whose Host"
                    + " names it (403 otherwise, /stats included; --allow-host adds a name) and that carry no"
                    + " foreign Origin. Bound to another address it is an open relay to the upstreams and /stats is"
                    + " public: put it behind a firewall or an authenticating proxy. Limits (docs/limits.md):"
                    + " request bodies over 1 MiB get 413, a client has 3 s for its request, each attempt is"
                    + " bounded by --timeout, --threads requests call upstreams at once, a client address has at"
                    + " most --client-connections connections and --per-client requests in the proxy, answers held"
                    + " at once are bounded by --max-buffered-bytes.",
            "",
            "Exit status 2 on bad input or a taken port, and when stage records could not be written to --stages."
        })
public final class ProxyCommand implements Callable<Integer> {
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
            description =
                    "gateway (the API gateway's rules, docs/gateway.md; the default without a settings file) or envoy.")
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

    @Mixin
    ProxyLimits limits;

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
        limits.check(spec);
        InetSocketAddress bound = new InetSocketAddress(host, 0);
        if (bound.isUnresolved()) {
            err.println("outlier-lab: --host: " + Wording.printable(Wording.shortPrefix(host))
                    + " is not a known address; use 127.0.0.1 (the default) or 0.0.0.0");
            return Main.EXIT_BAD_INPUT;
        }
        limits.checkHostNames();
        Map<String, URI> targets = ProxySetup.upstreams(upstreams);
        limits.attemptTimeout();
        StageMode modeOverride = mode == null ? null : StageMode.parse("--mode", mode);
        LivePoolBuilder builder = ProxySetup.builder(profile, settingsFile, sets);
        if (modeOverride != null) {
            builder.mode(modeOverride);
        }
        StageLog stageLog = ProxySetup.openStageLog(stagesFile);
        if (!start(builder, targets, stageLog, err)) {
            return Main.EXIT_BAD_INPUT;
        }
        Thread hook = new Thread(this::stop, "outlier-lab-proxy-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        announce(targets, bound, out, err);
        Thread lossWatch = stageLog == null ? null : ProxySetup.watchLosses(stageLog, err, stagesFile);
        return ProxySetup.awaitStop(stopped, hook, lossWatch, stageLog, stagesFile, err);
    }

    /** Starts the pool and the proxy over it; false (with the message said) when the port cannot be bound. */
    private boolean start(LivePoolBuilder builder, Map<String, URI> targets, StageLog stageLog, PrintWriter err) {
        pool = builder.build().start();
        if (stageLog != null) {
            pool.addListener(stageLog);
        }
        FailoverClient client = limits.client(pool);
        targets.forEach(client::addUpstream);
        try {
            proxy = ReverseProxy.start(client, host, port, limits.settings(stageLog));
        } catch (BindException e) {
            pool.close();
            err.println("outlier-lab: cannot listen on " + host + ":" + port + ": " + e.getMessage()
                    + "; choose another port with --port, or --port 0 for any free port");
            return false;
        } catch (IOException e) {
            pool.close();
            throw new UncheckedIOException("cannot start the proxy on " + host + ":" + port, e);
        }
        return true;
    }

    /** Says where the proxy listens, and warns when that is not loopback. */
    private void announce(Map<String, URI> targets, InetSocketAddress bound, PrintWriter out, PrintWriter err) {
        out.println("outlier-lab: proxy at " + proxy.uri() + " over " + String.join(", ", targets.keySet()) + " ("
                + pool.profile() + " profile, mode " + pool.mode().configName() + "); stats at " + proxy.uri()
                + "stats (Ctrl-C to stop)");
        out.flush();
        String warning = exposureWarning(bound.getAddress(), host);
        if (warning != null) {
            err.println(warning);
            err.flush();
        }
    }

    /** The loud warning for a proxy bound to an address other than loopback, or null. */
    static String exposureWarning(InetAddress address, String host) {
        if (address.isLoopbackAddress()) {
            return null;
        }
        return "outlier-lab: WARNING: the proxy listens on " + host + ", not on loopback: anyone who can reach "
                + "this address can send requests through it to the upstreams (an open relay) and read /stats. Put "
                + "a firewall or an authenticating proxy in front of it, or bind 127.0.0.1 (see docs/limits.md).";
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
