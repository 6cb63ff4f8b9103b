package dev.outlierlab.tune;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * An nginx upstream whose location already retries a 503 on the next server ({@code proxy_next_upstream error timeout
 * http_503}) and whose servers count failures ({@code max_fails=2/1/1}): detection off then fails no request of a
 * host answering 503, and a setting can catch a timing-out server only by counting errors, which in a shared outage
 * takes every server out (502 "no live upstreams"), or by no longer retrying 503, which passes the failing host's
 * 503s to the callers. Neither is advice: the recommendation stops counting ({@code max_fails=0}), keeps the 503 retry
 * and says what it leaves uncaught. A setting that stops retrying 503 was recommended before with "benefit 99.9 %",
 * its 233 more failed requests per 1,000 with a dead host left out of the share removed.
 */
class RetriedStatusesTuneTest {
    static final String CONF = """
            events {}
            http {
              upstream api {
                server 10.0.0.1:8080 max_fails=2 fail_timeout=5s;
                server 10.0.0.2:8080;
                server 10.0.0.3:8080 weight=2;
                keepalive 16;
              }
              server {
                listen 80;
                location / {
                  proxy_pass http://api;
                  proxy_next_upstream error timeout http_503;
                  proxy_read_timeout 5s;
                }
              }
            }
            """;

    @Test
    void aSettingThatStopsRetryingA503IsNotRecommendedToCatchATimingOutServer() {
        CurrentSettings current = CurrentSettings.read(CONF, "nginx.conf");
        TuneRequest req = EnvoyRequests.fromFlags(current, 3, 60L, "default", 1, 2);
        TuneResult r = TuneService.run(req, u -> {}, null, CONF, current.target());
        Evaluation best = r.recommended();

        assertThat(best.admissible())
                .as("%s: %s", req.target().label(best.setting()), best.violations())
                .isTrue();
        for (ScenarioScore sc : best.scores()) {
            for (int i = 0; i < sc.runs().size(); i++) {
                RunFigures run = sc.runs().get(i);
                assertThat(run.failed() - sc.off().get(i).failed())
                        .as(
                                "%s seed %d: failed beyond detection off",
                                sc.scenario().name(), i + 1)
                        .isLessThanOrEqualTo(run.requests() / 1000);
            }
        }
        String file = r.recommendedFile();
        assertThat(file).contains("server 10.0.0.1:8080 max_fails=0");
        assertThat(file).containsPattern("proxy_next_upstream error timeout[a-z_0-9 ]* http_503");
        // what it leaves: a timing-out server keeps its share of first tries, each waiting proxy_read_timeout (5 s)
        ScenarioScore timeout = best.score("one-host-timeout");
        assertThat(timeout.runs().get(0).delayedRequests()
                        * 1000.0
                        / timeout.runs().get(0).requests())
                .isBetween(200.0, 260.0);

        // the setting that catches the timing-out server is on the front, with what it costs
        Evaluation catches = Choice.boughtWithFailures(best, r.front());
        assertThat(catches).isNotNull();
        assertThat(catches.benefitPercent()).isGreaterThan(90);
        assertThat(catches.addsFailuresWhereNoneShould()).isTrue();
        assertThat(r.headline()).startsWith("Nothing the target can express catches a failing host here without");
        assertThat(r.why())
                .startsWith("Every setting the target can express that removes avoidable failures here fails more "
                        + "requests than detection off where nothing should be ejected, more than it spares where a "
                        + "host fails: the one that removes the most, ");
        // what catching buys against what it costs, in one unit: requests per 1,000
        Choice.Spared spared = Choice.spared(catches, best);
        assertThat(spared.perThousand()).isLessThan(catches.addedFailuresPerThousand());
        assertThat(r.cannotCatch())
                .anyMatch(l -> l.startsWith("one-host-timeout (one host times out every request): "
                        + "no admissible setting on the front removes more than 0.0 % of its avoidable failures; "));

        // a setting that no longer retries 503 scores -100 % where detection off fails nothing
        Setting noRetry = SearchSpace.candidates(req).stream()
                .filter(s -> req.target().label(s).equals("max_fails=1 fail_timeout=30s -5xx"))
                .findFirst()
                .orElseThrow();
        assertThat(r.front()).noneMatch(e -> e.setting().equals(noRetry) && e.benefitPercent() > 0);
        assertThat(best.candidate())
                .as("the current settings empty the upstream in a shared outage")
                .isNotZero();
    }
}
