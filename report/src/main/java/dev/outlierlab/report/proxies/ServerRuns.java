package dev.outlierlab.report.proxies;

import dev.outlierlab.config.haproxy.HaproxyBackend;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.config.scenario.ScenarioWriter;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.caddy.CaddyEvent;
import dev.outlierlab.engine.caddy.CaddyPassiveConfig;
import dev.outlierlab.engine.haproxy.HaproxyEvent;
import dev.outlierlab.engine.nginx.NginxEvent;
import dev.outlierlab.engine.nginx.NginxServer;
import dev.outlierlab.engine.nginx.NginxUpstreamConfig;
import dev.outlierlab.sim.caddy.CaddySimulation;
import dev.outlierlab.sim.haproxy.HaproxySimulation;
import dev.outlierlab.sim.nginx.NginxRunResult;
import dev.outlierlab.sim.nginx.NginxSimulation;
import dev.outlierlab.sim.trace.TraceRecord;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntToLongFunction;

/**
 * The runs of the nginx, HAProxy and Caddy profiles as their reports show them ({@link ServerRun}): each simulation's
 * result with every ejection and return under the server's own reason, for the command line and the browser lab alike.
 */
public final class ServerRuns {
    private ServerRuns() {}

    /** A run of a {@code profile: nginx} scenario: its traffic and faults, or {@code trace}'s outcomes when not null. */
    public static ServerRun nginx(ScenarioReader.Profiled resolved, String head, Iterator<TraceRecord> trace) {
        NginxUpstreamConfig config = resolved.settings(NginxUpstreamConfig.class);
        NginxRunResult r = trace == null
                ? NginxSimulation.run(resolved.envoy().scenario(), config)
                : NginxSimulation.replay(resolved.envoy().scenario(), config, trace);
        List<ServerRun.Event> events = new ArrayList<>();
        for (NginxEvent e : r.events()) {
            Map<String, Long> figures = new LinkedHashMap<>();
            figures.put("worker", (long) e.worker());
            figures.put("fails", e.fails());
            figures.put("max_fails", (long) e.maxFails());
            if (e.action() == NginxEvent.Action.EJECT) {
                figures.put("probe_at_ns", e.returnAtNanos());
            }
            events.add(new ServerRun.Event(
                    e.timeNanos(),
                    e.action().outputName(),
                    e.endpointName(),
                    e.reason().outputName(),
                    e.reason().outputName() + "  worker " + e.worker(),
                    figures));
        }
        // requests answered only after waiting for failed attempts (a timed-out one waits proxy_read_timeout), as tune
        // counts them: shown when there are any
        Map<String, Long> counters = new LinkedHashMap<>();
        if (r.delayedRequests() > 0) {
            counters.put("slow requests", r.delayedRequests());
            counters.put("slow wait ms", r.delayNanos() / 1_000_000);
        }
        return new ServerRun(
                "nginx",
                head + ": upstream " + config.name() + ", " + r.hosts().size() + " servers" + backups(config) + ", "
                        + r.workers()
                        + (r.workers() == 1 ? " counting worker" : " counting workers (no zone)")
                        + ", proxy_next_upstream "
                        + String.join(" ", config.nextUpstream().words())
                        + readTimeout(config),
                resolved.envoy().scenario(),
                r.requests(),
                r.clientErrors(),
                "no live upstreams (502)",
                r.noLiveUpstreams(),
                r.hosts(),
                r.attempts(),
                ServerRuns.perServer(r.hosts().size(), r::ejections),
                counters,
                events,
                r.requestsDuringFault(),
                r.errorsDuringFault());
    }

    /** The upstream's {@code proxy_read_timeout} as ", proxy_read_timeout 5s", or "" at nginx's default 60 s. */
    static String readTimeout(NginxUpstreamConfig config) {
        return config.readTimeoutNanos() == NginxUpstreamConfig.DEFAULT_READ_TIMEOUT_NANOS
                ? ""
                : ", proxy_read_timeout " + Durations.format(config.readTimeoutNanos());
    }

    /** The {@code backup} servers by address, as " (backup: ADDR, ...)", or "" when there are none. */
    static String backups(NginxUpstreamConfig config) {
        List<String> names = new ArrayList<>();
        for (NginxServer s : config.servers()) {
            if (s.backup()) {
                names.add(s.name());
            }
        }
        return names.isEmpty() ? "" : " (backup: " + String.join(", ", names) + ")";
    }

    /** A run of a {@code profile: haproxy} scenario: its traffic and faults, or {@code trace}'s outcomes when not null. */
    public static ServerRun haproxy(ScenarioReader.Profiled resolved, String head, Iterator<TraceRecord> trace) {
        HaproxyBackend backend = resolved.settings(HaproxyBackend.class);
        HaproxySimulation.Result r = trace == null
                ? HaproxySimulation.run(resolved.envoy().scenario(), backend.servers())
                : HaproxySimulation.replay(resolved.envoy().scenario(), backend.servers(), trace);
        List<ServerRun.Event> events = new ArrayList<>();
        for (HaproxyEvent e : r.events()) {
            Map<String, Long> figures = new LinkedHashMap<>();
            figures.put("health", (long) e.health());
            events.add(new ServerRun.Event(
                    e.timeNanos(), e.action(), e.endpointName(), e.reason().outputName(), "", figures));
        }
        Map<String, Long> counters = new LinkedHashMap<>();
        counters.put("error-limit trips", r.trips());
        counters.put("health checks", r.checks());
        List<String> servers = backend.hosts();
        return new ServerRun(
                "haproxy",
                head + ": backend " + backend.name() + ", " + servers.size() + " servers",
                resolved.envoy().scenario(),
                r.requests(),
                r.clientErrors(),
                "no server available (503)",
                r.noServer(),
                servers,
                r.attempts(),
                ServerRuns.perServer(servers.size(), r::downs),
                counters,
                events,
                r.requestsDuringFault(),
                r.errorsDuringFault());
    }

    /** A run of a {@code profile: caddy} scenario: its traffic and faults, or {@code trace}'s outcomes when not null. */
    public static ServerRun caddy(ScenarioReader.Profiled resolved, String head, Iterator<TraceRecord> trace) {
        CaddyPassiveConfig config = resolved.settings(CaddyPassiveConfig.class);
        CaddySimulation.Result r = trace == null
                ? CaddySimulation.run(resolved.envoy().scenario(), config)
                : CaddySimulation.replay(resolved.envoy().scenario(), config, trace);
        List<ServerRun.Event> events = new ArrayList<>();
        for (CaddyEvent e : r.events()) {
            Map<String, Long> figures = new LinkedHashMap<>();
            figures.put("fails", (long) e.fails());
            events.add(new ServerRun.Event(
                    e.timeNanos(),
                    e.action(),
                    e.endpointName(),
                    e.reason(),
                    e.eject()
                            ? "max_fails reached (" + e.fails() + " failures within fail_duration)"
                            : "failures forgotten (" + e.fails() + " left in fail_duration)",
                    figures));
        }
        Map<String, Long> counters = new LinkedHashMap<>();
        counters.put("retries", r.retries());
        // a try that does not answer: held without response_header_timeout, else waited for and retried
        if (r.heldRequests() > 0) {
            counters.put("held requests", r.heldRequests());
        }
        if (r.slowRequests() > 0) {
            counters.put("slow requests", r.slowRequests());
            counters.put("slow wait ms", r.slowWaitNanos() / 1_000_000);
        }
        List<String> upstreams = config.upstreams();
        return new ServerRun(
                "caddy",
                head + ": reverse_proxy, " + upstreams.size() + " upstreams",
                resolved.envoy().scenario(),
                r.requests(),
                r.clientErrors(),
                "no upstreams available (503)",
                r.noUpstreams(),
                upstreams,
                r.attempts(),
                ServerRuns.perServer(upstreams.size(), r::ejections),
                counters,
                events,
                r.requestsDuringFault(),
                r.errorsDuringFault());
    }

    /**
     * The scenario of a server's profile as its file gives it, every default filled in: the lab's part (without
     * Envoy's release and own settings), {@code profile: NAME} and the profile's block.
     */
    public static Map<String, Object> scenario(ScenarioReader.Profiled resolved, Map<String, Object> block) {
        Map<String, Object> m = ScenarioWriter.toMap(resolved.envoy().scenario());
        m.remove("envoy_version"); // the server's own profile runs no Envoy release
        m.remove("outlier_detection");
        m.remove("health_checks");
        m.put("profile", resolved.name());
        m.put(resolved.name(), block);
        return m;
    }

    /** Counts per server of what {@code count} says about server {@code i}. */
    static long[] perServer(int n, IntToLongFunction count) {
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = count.applyAsLong(i);
        }
        return out;
    }
}
