package dev.outlierlab.tune.nginx;

import dev.outlierlab.config.nginx.NginxBlock;
import dev.outlierlab.config.nginx.NginxScenarioFormat;
import dev.outlierlab.engine.nginx.NginxEvent;
import dev.outlierlab.engine.nginx.NginxServer;
import dev.outlierlab.engine.nginx.NginxUpstreamConfig;
import dev.outlierlab.sim.nginx.NginxRunResult;
import dev.outlierlab.sim.nginx.NginxSimulation;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.tune.RunFigures;
import dev.outlierlab.tune.RunProfile;
import dev.outlierlab.tune.ServerFigures;
import dev.outlierlab.tune.Setting;
import dev.outlierlab.tune.SuiteScenario;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * nginx's passive health check ({@link NginxSimulation}: {@code max_fails} failed attempts within {@code fail_timeout}
 * take a server out for {@code fail_timeout}, per worker or per {@code zone}) with these settings over the scenario's
 * hosts, traffic and faults. The scenario's hosts become the upstream's servers, weight 1, the host numbered
 * {@code i} with the {@code max_fails} and {@code fail_timeout} of server line {@code i} (counted round when the
 * scenario has more hosts than the upstream has servers) and its {@code backup}, so an upstream whose servers
 * differ runs as written.
 *
 * @param config the upstream as read from the user's file, or as the search wrote it
 * @param readTimeoutNanos the {@code proxy_read_timeout} in effect where the upstream is used: what a request waits
 *     for a timed-out attempt before nginx retries it on the next server
 */
public record NginxRun(NginxUpstreamConfig config, long readTimeoutNanos) implements RunProfile {
    /** The upstream with nginx's default {@code proxy_read_timeout}, 60 s. */
    public NginxRun(NginxUpstreamConfig config) {
        this(config, NginxSimulation.DEFAULT_READ_TIMEOUT_NANOS);
    }

    @Override
    public RunFigures figures(SuiteScenario suite, Scenario scenario) {
        return figures(
                suite, scenario.durationNanos(), NginxSimulation.run(scenario, onHosts(scenario), readTimeoutNanos));
    }

    /** The upstream with one server line a scenario host, as the run has them. */
    private NginxUpstreamConfig onHosts(Scenario scenario) {
        List<NginxServer> servers = new ArrayList<>();
        List<String> hosts = scenario.cluster().hosts();
        for (int i = 0; i < hosts.size(); i++) {
            NginxServer line = config.servers().get(i % config.servers().size());
            servers.add(
                    new NginxServer(hosts.get(i), 1, line.maxFails(), line.failTimeoutSeconds(), false, line.backup()));
        }
        if (servers.stream().allMatch(NginxServer::backup)) {
            servers.replaceAll(s -> s.withBackup(false)); // nginx needs one server that is not backup
        }
        return config.withServers(servers);
    }

    /**
     * A {@code profile: nginx} scenario with the upstream as the run has it ({@code nginx:} block, one server a host),
     * its {@code proxy_read_timeout} the one the run waits for a timed-out attempt: {@code run} of it gives the run's
     * slow requests.
     */
    @Override
    public Map<String, Object> labScenario(Scenario scenario) {
        Map<String, Object> out = RunProfile.ofProfile(NginxScenarioFormat.NAME, scenario);
        out.put(NginxScenarioFormat.NAME, NginxBlock.toMap(onHosts(scenario).withReadTimeout(readTimeoutNanos)));
        return out;
    }

    /** The upstream with no passive check: {@code max_fails=0} never takes a server out. */
    @Override
    public RunProfile off() {
        List<NginxServer> servers = new ArrayList<>();
        for (NginxServer s : config.servers()) {
            servers.add(s.withMaxFails(0));
        }
        return new NginxRun(config.withServers(servers), readTimeoutNanos);
    }

    @Override
    public Setting setting() {
        return NginxTuneTarget.setting(config);
    }

    /**
     * A run's figures: requests as the client saw them (after nginx's next-upstream tries), those that waited for a
     * timed-out attempt before their answer ({@code proxy_read_timeout}, nginx's default 60 s), each worker a caller.
     */
    private static RunFigures figures(SuiteScenario suite, long duration, NginxRunResult r) {
        List<ServerFigures.Decision> decisions = r.events().stream()
                .map(e -> new ServerFigures.Decision(
                        e.worker(),
                        e.endpoint(),
                        e.endpointName(),
                        e.timeNanos(),
                        e.action() == NginxEvent.Action.EJECT))
                .toList();
        long failedAttempts = 0;
        for (long f : r.failedAttempts()) {
            failedAttempts += f;
        }
        return ServerFigures.of(
                suite,
                duration,
                r.workers(),
                decisions,
                new ServerFigures.Counts(
                        r.requests(),
                        r.clientErrors(),
                        r.requestsDuringFault(),
                        r.errorsDuringFault(),
                        r.attempts(),
                        failedAttempts,
                        r.delayedRequests(),
                        r.delayNanos()));
    }
}
