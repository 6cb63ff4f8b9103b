package dev.outlierlab.tune;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A server that times out costs its callers a wait even when nginx retries it away: {@code tune --target nginx
 * --hosts 6 --rps 120} on the built-in suite, one seed. In one-host-timeout (the first of 6 servers times out every
 * request from 30 s to 240 s, 120 requests a second for 300 s: 36,000 requests, 25,200 in the fault) every request
 * the round robin gives it first, one in 6, waits nginx's proxy_read_timeout of 60 s and is answered by the next
 * server under {@code max_fails=0}: 4,200 slow requests, 116.7 per 1,000. Under nginx's default {@code max_fails=1
 * fail_timeout=10s} the first timeout takes it out until second 41 (30 + 10 + 1), and each later probe once every
 * 11 s: 20 slow requests (30, 41, ..., 239 s), 0.6 per 1,000.
 */
class NginxSlowRequestsTest {
    private static final EnvoyVersion V140 = new EnvoyVersion(1, 40);

    static TuneRequest request() {
        Target nginx = Target.byFlag("nginx");
        CurrentSettings cur = CurrentSettings.defaults("search", nginx, 6);
        return TuneRequest.builder()
                .name("search")
                .hosts(6)
                .rps(120)
                .clients(1)
                .target(nginx)
                .envoyVersion(V140)
                .current(cur.config())
                .currentPanicPercent(cur.panicThresholdPercent())
                .suite(new DefaultSuite(6, 120, 1, 0).scenarios())
                .screenSeeds(1)
                .seeds(1)
                .maxEjected(TuneRequest.defaultMaxEjected(6))
                .baseErrorPpm(0)
                .threads(2)
                .currentProfile(cur.profile())
                .build();
    }

    private static SuiteScenario scenario(TuneRequest req, String name) {
        return req.suite().stream()
                .filter(s -> s.name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    private static ScenarioScore score(TuneRequest req, String scenario, String label) {
        SuiteScenario sc = scenario(req, scenario);
        Setting s = label == null
                ? req.currentSetting()
                : SearchSpace.candidates(req).stream()
                        .filter(c -> req.target().label(c).equals(label))
                        .findFirst()
                        .orElseThrow();
        Target.Written w = req.write(s);
        List<TuneRuns.Job> jobs = new ArrayList<>();
        jobs.add(new TuneRuns.Job(
                sc, sc.with(1, w.config(), w.panicThresholdPercent(), req.envoyVersion()), w.profile()));
        jobs.add(sc.offJob(req, 1));
        jobs.add(sc.correctJob(req, 1));
        List<RunFigures> f = new TuneRuns(2).run(jobs, u -> {});
        return new ScenarioScore(sc, List.of(f.get(0)), List.of(f.get(1)), List.of(f.get(2)));
    }

    @Test
    void aServerLeftInMakesOneRequestInSixWaitItsTimeoutAndTakingItOutSparesThem() {
        TuneRequest req = request();
        ScenarioScore never = score(req, "one-host-timeout", "max_fails=0 fail_timeout=10s +502/503/504");
        RunFigures run = never.runs().get(0);
        assertThat(run.requests()).isEqualTo(36_000);
        assertThat(run.failed()).isZero();
        assertThat(run.delayedRequests()).isEqualTo(4_200);
        assertThat(run.delayNanos()).isEqualTo(4_200L * 60_000_000_000L);
        assertThat(never.slowPerThousand(false)).isCloseTo(116.67, within(0.01));
        // detection off is max_fails=0 too: the same wait, nothing of it removed
        assertThat(never.slowPerThousand(true)).isCloseTo(116.67, within(0.01));
        assertThat(never.removedPercent()).isZero();

        ScenarioScore counting = score(req, "one-host-timeout", null);
        assertThat(counting.runs().get(0).failed()).isZero();
        assertThat(counting.runs().get(0).delayedRequests()).isEqualTo(20);
        assertThat(counting.slowPerThousand(false)).isCloseTo(0.56, within(0.01));
        // (4,200 - 20) / (4,200 - 0): the correct action (the server out from the start) waits for nothing
        assertThat(counting.correct().get(0).delayedRequests()).isZero();
        assertThat(counting.removedPercent()).isCloseTo(4_180 * 100.0 / 4_200, within(0.001));
    }

    @Test
    void aRefusingServerIsRetriedAtOnceAndLeavesNothingToRemove() {
        TuneRequest req = request();
        ScenarioScore never = score(req, "one-host-refused", "max_fails=0 fail_timeout=10s +502/503/504");
        assertThat(never.runs().get(0).failed()).isZero();
        assertThat(never.runs().get(0).delayedRequests()).isZero();
        assertThat(never.removedPercent()).isNaN();
        assertThat(never.delayed()).isFalse();
    }

    /**
     * The search weighs the wait: the recommendation is still {@code max_fails=0} with 502, 503 and 504 retried (a
     * setting that counts timeouts but not 5xx lets every partial 5xx failure through, one that counts both takes
     * every server out in a shared outage), but it no longer removes everything, and the text and the JSON say what
     * its callers wait.
     */
    @Test
    void theRecommendationSaysWhatItsCallersWait() {
        TuneRequest req = request();
        TuneResult r = Tuner.tune(req, u -> {});
        Evaluation rec = r.recommended();
        assertThat(req.target().label(rec.setting())).isEqualTo("max_fails=0 fail_timeout=10s +502/503/504");
        ScenarioScore timeout = rec.score("one-host-timeout");
        assertThat(timeout.slowPerThousand(false)).isCloseTo(116.67, within(0.01));
        assertThat(timeout.removedPercent()).isZero();
        // 8 of the 10 should-eject scenarios with avoidable harm removed in full, the two with timeouts not at all
        assertThat(rec.benefitPercent()).isCloseTo(80, within(0.5));
        assertThat(r.current().benefitPercent()).isGreaterThan(15);

        String text = TuneText.render(r);
        assertThat(text)
                .contains("slow/1k")
                .contains("Front: benefit (avoidable failures and slow requests removed")
                .contains("It leaves requests waiting for a timed-out attempt before another host answers them "
                        + "(slow requests, each counted as a failure in the share removed): one-host-timeout 116.7 per"
                        + " 1,000 (0.6 with the current settings)")
                .contains("60.0 s each on average")
                .contains("a server that refuses connections or times out is never taken out either");
        ObjectNode json = TuneJson.tree(r);
        JsonNode scenarios = json.get("recommended").get("scenarios");
        JsonNode t = null;
        for (JsonNode s : scenarios) {
            if (s.get("name").asText().equals("one-host-timeout")) {
                t = s;
            }
        }
        assertThat(t).isNotNull();
        assertThat(t.get("slow_per_thousand").asDouble()).isCloseTo(116.6667, within(0.0001));
        assertThat(t.get("slow_wait_seconds").asDouble()).isEqualTo(252_000.0);
        assertThat(t.get("seeds").get(0).get("slow").asLong()).isEqualTo(4_200);
    }
}
