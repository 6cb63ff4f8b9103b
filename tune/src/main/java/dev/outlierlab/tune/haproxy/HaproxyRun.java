package dev.outlierlab.tune.haproxy;

import dev.outlierlab.config.haproxy.HaproxyBlock;
import dev.outlierlab.config.haproxy.HaproxyScenarioFormat;
import dev.outlierlab.engine.haproxy.HaproxyServer;
import dev.outlierlab.engine.haproxy.Observe;
import dev.outlierlab.sim.haproxy.HaproxySimulation;
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
 * HAProxy's passive check ({@link HaproxySimulation}: {@code observe} counts consecutive errors per server and
 * {@code on-error} acts at {@code error-limit}; active checks bring a server back) over the scenario's hosts, traffic
 * and faults. The scenario's hosts become the backend's servers, each with the parameters of its first server line.
 *
 * @param servers the backend's servers as read from the user's file, or as the search wrote them
 */
public record HaproxyRun(List<HaproxyServer> servers) implements RunProfile {
    public HaproxyRun {
        servers = List.copyOf(servers);
    }

    @Override
    public RunFigures figures(SuiteScenario suite, Scenario scenario) {
        return figures(suite, scenario.durationNanos(), HaproxySimulation.run(scenario, onHosts(scenario)));
    }

    /** One server a scenario host, each with the first server line's parameters, as the run has them. */
    private List<HaproxyServer> onHosts(Scenario scenario) {
        HaproxyServer first = servers.get(0);
        List<HaproxyServer> run = new ArrayList<>();
        for (String h : scenario.cluster().hosts()) {
            run.add(new HaproxyServer(
                    h,
                    h,
                    first.check(),
                    first.observe(),
                    first.errorLimit(),
                    first.onError(),
                    first.interNanos(),
                    first.fastinterNanos(),
                    first.downinterNanos(),
                    first.rise(),
                    first.fall()));
        }
        return run;
    }

    /** A {@code profile: haproxy} scenario with the backend as the run has it ({@code haproxy:} block). */
    @Override
    public Map<String, Object> labScenario(Scenario scenario) {
        Map<String, Object> out = RunProfile.ofProfile(HaproxyScenarioFormat.NAME, scenario);
        out.put(HaproxyScenarioFormat.NAME, HaproxyBlock.toMap("app", onHosts(scenario)));
        return out;
    }

    /** The backend with nothing observed: only the active checks act. */
    @Override
    public RunProfile off() {
        List<HaproxyServer> out = new ArrayList<>();
        for (HaproxyServer s : servers) {
            out.add(s.observing(Observe.NONE, s.errorLimit(), s.onError()));
        }
        return new HaproxyRun(out);
    }

    @Override
    public Setting setting() {
        return HaproxyTuneTarget.setting(servers.get(0));
    }

    /** A run's figures: one detector (the HAProxy process), each DOWN an ejection and each UP a return. */
    private static RunFigures figures(SuiteScenario suite, long duration, HaproxySimulation.Result r) {
        List<ServerFigures.Decision> decisions = r.events().stream()
                .map(e -> new ServerFigures.Decision(0, e.endpoint(), e.endpointName(), e.timeNanos(), e.down()))
                .toList();
        return ServerFigures.of(
                suite,
                duration,
                1,
                decisions,
                new ServerFigures.Counts(
                        r.requests(),
                        r.clientErrors(),
                        r.requestsDuringFault(),
                        r.errorsDuringFault(),
                        r.attempts(),
                        r.clientErrors() - r.noServer()));
    }
}
