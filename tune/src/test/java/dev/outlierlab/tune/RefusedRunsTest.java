package dev.outlierlab.tune;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.sim.scenario.Scenario;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The refused rule of {@link RunSharing}: a candidate whose cap admits no host of a scenario's cluster runs as
 * detection off does, so the search takes its run from detection off's and makes it only for a setting it prints (for
 * the count of detections the cap refused). Each candidate's own run is checked against detection off's, and whole
 * searches with the rule against the same searches making every such run: the same JSON but for the count of runs.
 */
class RefusedRunsTest {
    @Test
    void aRefusedRunIsDetectionOffsButForTheRefusedCount() {
        long checked = 0;
        long refusedSome = 0;
        for (TuneRequest req : List.of(
                EnvoyRequests.fromFlags(5, 200L, 1, 2),
                request("envoy", 8, 400, 5, 1),
                request("istio", 6, 300, 1, 1))) {
            List<Target.Written> written = new ArrayList<>();
            for (Setting s : SearchSpace.candidates(req)) {
                written.add(req.write(s));
            }
            RunSharing sharing = new RunSharing(written, req.suite(), req.envoyVersion());
            TuneRuns runs = new TuneRuns(2);
            for (SuiteScenario sc : req.suite()) {
                int hosts = sc.scenario().cluster().size();
                List<TuneRuns.Job> jobs = new ArrayList<>();
                for (int c = 0; c < written.size(); c++) {
                    if (sharing.refusesAll(
                            c,
                            hosts,
                            TuneRuns.OFF,
                            req.currentPanicPercent(),
                            req.currentProfile().off())) {
                        Target.Written w = written.get(c);
                        Scenario run = sc.with(1, w.config(), w.panicThresholdPercent(), req.envoyVersion());
                        jobs.add(new TuneRuns.Job(sc, run, w.profile()));
                    }
                }
                if (jobs.isEmpty()) {
                    continue;
                }
                jobs.add(sc.offJob(req, 1));
                List<RunFigures> figures = runs.run(jobs, u -> {});
                RunFigures off = figures.get(figures.size() - 1);
                for (RunFigures own : figures.subList(0, figures.size() - 1)) {
                    assertThat(own.ejections())
                            .as("%s: %s", req.target().flag(), sc.name())
                            .isZero();
                    assertThat(own)
                            .as("%s: %s", req.target().flag(), sc.name())
                            .isEqualTo(off.withOverflows(own.overflows()));
                    checked++;
                    if (own.overflows() > 0) {
                        refusedSome++;
                    }
                }
            }
        }
        assertThat(checked).isGreaterThan(100);
        assertThat(refusedSome).isGreaterThan(50);
    }

    /**
     * Every printed figure is the same as when every run is made: targets Envoy, Istio, gRPC, the gateway and nginx,
     * 2 to 20 hosts, one and five callers, and current settings read from a file.
     */
    @Test
    void theSearchPrintsWhatMakingEveryRunPrints() {
        String cluster = """
                name: payments
                type: STATIC
                load_assignment:
                  cluster_name: payments
                  endpoints:
                  - lb_endpoints:
                    - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 8080}}}
                    - endpoint: {address: {socket_address: {address: 10.0.0.2, port_value: 8080}}}
                    - endpoint: {address: {socket_address: {address: 10.0.0.3, port_value: 8080}}}
                    - endpoint: {address: {socket_address: {address: 10.0.0.4, port_value: 8080}}}
                common_lb_config:
                  healthy_panic_threshold: {value: 30}
                outlier_detection:
                  consecutive_5xx: 3
                  max_ejection_percent: 20
                  enforcing_success_rate: 0
                """;
        long fewer = 0;
        for (TuneRequest req : List.of(
                request("envoy", 2, 100, 1, 2),
                request("envoy", 8, 200, 5, 2),
                request("istio", 6, 150, 1, 2),
                request("grpc", 3, 100, 1, 2),
                request("gateway", 8, 150, 1, 2),
                request("nginx", 5, 100, 1, 2),
                request("envoy", 20, 200, 1, 2),
                EnvoyRequests.fromFlags(CurrentSettings.read(cluster, "cluster.yaml"), 4, 100L, "default", 2, 2))) {
            TuneResult made = Tuner.tuneMakingEveryRefusedRun(req, new TuneRuns(2));
            TuneResult taken = Tuner.tune(req, u -> {}, new TuneRuns(2));
            String label = req.target().flag() + " " + req.hosts() + " hosts, " + req.clients() + " callers";
            assertThat(withoutRuns(TuneJson.write(taken))).as(label).isEqualTo(withoutRuns(TuneJson.write(made)));
            assertThat(taken.runs()).as(label).isLessThanOrEqualTo(made.runs());
            fewer += made.runs() - taken.runs();
            System.out.printf("%s: %d runs, %d with every refused run made%n", label, taken.runs(), made.runs());
        }
        assertThat(fewer).isGreaterThan(100);
    }

    /** A default search request of {@code target} (tune's flag), as the command builds it. */
    static TuneRequest request(String target, int hosts, long rps, int clients, int seeds) {
        Target t = Target.byFlag(target);
        return TuneService.request(new TuneService.Given(
                CurrentSettings.defaults("svc", t, hosts),
                hosts,
                rps,
                clients,
                null,
                null,
                null,
                "default",
                seeds,
                null,
                0,
                Evaluation.DEFAULT_MAX_ADDED_PER_THOUSAND,
                2,
                new ArrayList<>()));
    }

    private static String withoutRuns(String json) {
        return json.replaceAll("\"runs\" : \\d+", "\"runs\" : -");
    }
}
