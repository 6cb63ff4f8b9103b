package dev.outlierlab.tune;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.sim.scenario.Scenario;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every run the search takes from another candidate's ({@link RunSharing}) is that candidate's own run, field for
 * field: each candidate of a 5-host cluster at 200 rps is simulated on every scenario of the built-in suite (seed 1),
 * and wherever a run may stand for another's, the other's own run gives the same figures. Both rules stand for
 * runs there, and runs that ejected or hit the cap stand for none. Candidates whose caps admit the same counts of
 * ejected hosts (and that are otherwise alike) have the same run key, and their own runs are the same, ejections and
 * refusals included.
 */
class RunSharingTest {
    @Test
    void aSharedRunIsTheCandidatesOwnRun() {
        TuneRequest req = EnvoyRequests.fromFlags(5, 200L, 1, 2);
        List<Target.Written> written = new ArrayList<>();
        for (Setting s : SearchSpace.candidates(req)) {
            written.add(req.write(s));
        }
        RunSharing sharing = new RunSharing(written, req.suite(), req.envoyVersion());
        TuneRuns runs = new TuneRuns(2);
        long quiet = 0;
        long capped = 0;
        long refused = 0;
        long sameKey = 0;
        long sameKeyEjecting = 0;
        for (SuiteScenario sc : req.suite()) {
            List<TuneRuns.Job> jobs = new ArrayList<>();
            for (Target.Written w : written) {
                Scenario run = sc.with(1, w.config(), w.panicThresholdPercent(), req.envoyVersion());
                jobs.add(new TuneRuns.Job(sc, run, w.profile()));
            }
            List<RunFigures> figures = runs.run(jobs, u -> {});
            int hosts = sc.scenario().cluster().size();
            for (int b = 0; b < written.size(); b++) {
                for (int a = 0; a < b; a++) {
                    String key = sharing.runKey(a, hosts);
                    if (key != null && key.equals(sharing.runKey(b, hosts))) {
                        assertThat(figures.get(b))
                                .as("%s: candidates %d and %d with the same run key", sc.name(), a, b)
                                .isEqualTo(figures.get(a));
                        sameKey++;
                        if (figures.get(a).ejections() > 0 || figures.get(a).overflows() > 0) {
                            sameKeyEjecting++;
                        }
                    }
                }
                for (int a : sharing.coveredBy(b)) {
                    RunFigures fa = figures.get(a);
                    if (sharing.stands(a, b, fa, hosts)) {
                        assertThat(figures.get(b))
                                .as("%s: candidate %d's run for %d's", sc.name(), a, b)
                                .isEqualTo(fa);
                        if (sharing.capCovers(a, b)) {
                            capped++;
                        } else {
                            quiet++;
                        }
                    } else if (fa.ejections() > 0 || fa.overflows() > 0) {
                        refused++;
                    }
                }
            }
        }
        assertThat(quiet).isGreaterThan(100);
        assertThat(capped).isGreaterThan(100);
        assertThat(refused).isGreaterThan(100);
        System.out.printf("same run key: %d pairs, %d of them ejecting or refused%n", sameKey, sameKeyEjecting);
        assertThat(sameKeyEjecting).isGreaterThan(20);
    }
}
