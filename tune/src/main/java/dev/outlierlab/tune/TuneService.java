package dev.outlierlab.tune;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.sim.scenario.HealthCheckSpec;
import dev.outlierlab.sim.scenario.RoutingSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * {@code tune}'s decisions between the parsed inputs and the search: which figures win where flags, the current
 * settings' file and an access log each give hosts, rate and callers; what the notes say of them; the Envoy release;
 * the suite (built-in, sized to the cluster, and a suite file's); and, after the search, the recommendation spliced
 * into the user's own file. The command parses, calls {@link #request} and {@link #run}, and renders.
 */
public final class TuneService {
    private TuneService() {}

    /**
     * What an access log says of the traffic.
     *
     * @param said the sentence the output shows about it
     */
    public record LogFacts(long rps, int hosts, int clients, long baseErrorPpm, String said) {}

    /**
     * The parsed inputs: each figure null when not given.
     *
     * @param current        the current settings, already as the chosen target takes them
     * @param givenClients   the callers a scenario gave (run's inputs), or null
     * @param log            the access log's figures, or null
     * @param suite          {@code default} or a suite file
     * @param notes          notes gathered while reading the inputs (gRPC's xDS mapping)
     */
    public record Given(
            CurrentSettings current,
            Integer hosts,
            Long rps,
            Integer clients,
            Integer givenClients,
            String envoyVersion,
            LogFacts log,
            String suite,
            int seeds,
            Integer maxEjected,
            double maxFalsePerDay,
            double maxAddedPerThousand,
            int threads,
            List<String> notes) {}

    /** The request the search runs: figures resolved, notes said, the suite built. */
    public static TuneRequest request(Given g) {
        CurrentSettings current = g.current();
        Target t = current.target();
        LogFacts log = g.log();
        List<String> notes = new ArrayList<>(g.notes());
        int n = g.hosts() != null
                ? g.hosts()
                : current.hosts() != null ? current.hosts() : log != null ? log.hosts() : -1;
        if (n < 0 && g.hosts() == null) {
            throw new InputException("--hosts: missing; say how many hosts the cluster has, e.g. --hosts 6"
                    + (current.source() == null ? "" : " (" + current.source() + " does not list them)"));
        }
        if (g.rps() != null && g.rps() < 1) {
            throw new InputException("--rps: " + g.rps() + " is not allowed; expected " + TuneRequest.RPS_RANGE);
        }
        long rate = g.rps() != null ? g.rps() : current.rps() != null ? current.rps() : log != null ? log.rps() : -1;
        if (rate < 0 && g.rps() == null) {
            throw new InputException(
                    "--rps: missing; say how many requests per second the cluster gets, e.g. --rps 600");
        }
        Integer clients = g.clients();
        if (clients == null) {
            clients = g.givenClients() != null
                    ? g.givenClients()
                    : log != null ? log.clients() : current.profile().callers();
            String oneEach = clients > 1 ? t.oneCallerEach(clients, rate) : null;
            if (oneEach != null) {
                // each caller is a detector of its own: one caller's detector sees its share of the rate
                notes.add(oneEach);
                rate = g.rps() != null ? rate : Math.max(1, rate / clients);
                clients = 1;
            }
        }
        if (log != null) {
            notes.add(0, log.said() + (g.rps() != null || current.rps() != null ? "; the rate given is used" : ""));
            notes.add(
                    1,
                    "the built-in scenarios' healthy hosts fail at that base rate (random 503s) while their fault is "
                            + "active, so noise is scored as the log shows it");
        }
        HealthCheckSpec health = healthChecks(current, t, notes);
        EnvoyVersion version = g.envoyVersion() != null
                ? ScenarioReader.envoyVersion(new Located(g.envoyVersion(), "--envoy-version"))
                : current.version() != null ? current.version() : EnvoyVersion.DEFAULT;
        int most = g.maxEjected() != null ? g.maxEjected() : TuneRequest.defaultMaxEjected(Math.max(1, n));
        long baseErrorPpm = log == null ? 0 : log.baseErrorPpm();
        List<SuiteScenario> scenarios = new ArrayList<>();
        if (n >= 2
                && n <= TuneRequest.MAX_HOSTS
                && clients >= 1
                && clients <= Math.min(TuneRequest.MAX_CLIENTS, Math.max(1, rate))) {
            scenarios.addAll(new DefaultSuite(n, rate, clients, baseErrorPpm, health).scenarios());
        }
        if (!g.suite().equals("default")) {
            SuiteFile.Read suiteRead = SuiteFile.read(Path.of(g.suite()));
            if (suiteRead.replace()) {
                scenarios.clear();
                if (health != null || baseErrorPpm > 0) {
                    notes.add("the suite file replaces the built-in scenarios; its own keep their own "
                            + (health != null ? "health_checks" : "faults")
                            + (health != null && baseErrorPpm > 0 ? " and faults" : ""));
                }
            }
            scenarios.addAll(suiteRead.scenarios());
        }
        RoutingSpec routes = TargetRoutes.of(current);
        if (routes != null && !scenarios.isEmpty()) {
            scenarios.replaceAll(sc -> sc.routedBy(routes));
            notes.add(TargetRoutes.note(routes));
        }
        return TuneRequest.builder()
                .name(current.name())
                .source(current.source())
                .hosts(n)
                .rps(rate)
                .clients(clients)
                .target(t)
                .envoyVersion(version)
                .current(current.config())
                .currentPanicPercent(current.panicThresholdPercent())
                .suite(scenarios)
                .screenSeeds(2)
                .seeds(g.seeds())
                .maxEjected(most)
                .baseErrorPpm(baseErrorPpm)
                .threads(g.threads())
                .currentProfile(current.profile())
                .healthChecks(health)
                .notes(notes)
                .maxFalsePerDay(g.maxFalsePerDay())
                .maxAddedPerThousand(g.maxAddedPerThousand())
                .build();
    }

    /** The current settings' health check as the suite runs it, with its note; null where the target has none. */
    private static HealthCheckSpec healthChecks(CurrentSettings current, Target t, List<String> notes) {
        HealthCheckSpec health = current.healthChecks();
        if (health != null && t.healthChecksNotRun() != null) {
            notes.add("health_checks are not run: " + t.healthChecksNotRun());
            return null;
        }
        if (health != null) {
            notes.add("health checks from " + current.source() + ": every " + Durations.format(health.intervalNanos())
                    + ", unhealthy after " + health.unhealthyThreshold() + ", healthy after "
                    + health.healthyThreshold()
                    + "; the built-in scenarios run with them: a host failing every request fails its probes, a "
                    + "partly failing host passes them"
                    + (current.config().successfulActiveHealthCheckUnejectHost()
                            ? " and a passing probe returns it " + "early (successful_active_health_check_uneject_host)"
                            : ""));
        }
        return health;
    }

    /**
     * Runs the search ({@code runner} null: on this machine's threads) and, when the current settings came from a
     * file of the target's own kind, splices the recommendation into that file's text ({@code fromText}).
     */
    public static TuneResult run(
            TuneRequest req, LongConsumer progress, RunExecutor runner, String fromText, Target fromTarget) {
        return run(req, progress, runner, null, fromText, fromTarget);
    }

    /** The same, with {@code check} told the search's estimate once its pilot has run ({@link SearchPilot}). */
    public static TuneResult run(
            TuneRequest req,
            LongConsumer progress,
            RunExecutor runner,
            SearchPilot.Check check,
            String fromText,
            Target fromTarget) {
        TuneResult result = Tuner.tune(req, progress, runner, check);
        result = result.saidAs(TuneWords.of(req, fromTarget == req.target() ? fromText : null));
        return fromText != null && req.target() == fromTarget ? result.deployedInto(fromText) : result;
    }
}
