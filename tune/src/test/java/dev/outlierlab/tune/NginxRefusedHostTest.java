package dev.outlierlab.tune;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.engine.nginx.NextUpstream;
import dev.outlierlab.engine.nginx.NginxServer;
import dev.outlierlab.engine.nginx.NginxUpstreamConfig;
import dev.outlierlab.tune.HeldOutScenarios.HeldOut;
import dev.outlierlab.tune.nginx.NginxRun;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * nginx at 6 hosts and 120 rps: no setting takes a server that refuses connections out within 10 s and keeps the 5xx
 * retries' benefit without taking healthy servers out in the built-in 20 % shared outage, so the recommendation
 * ({@code max_fails=0}, 502, 503 and 504 retried) leaves it in, and "what no setting can catch here" says so and why.
 * The sweep goes past the search's values: {@code max_fails} 1 to 200 (200 failed tries of the refusing server take
 * 10 s at its 20 a second), {@code fail_timeout} 1 s to 30 s, and {@code proxy_next_upstream} listing none of the 5xx,
 * {@code http_502 http_503 http_504} or all four.
 */
class NginxRefusedHostTest {
    private static final int HOSTS = 6;

    @Test
    void noSettingTakesARefusingServerOutInTimeAndKeepsTheRetriesBenefit() {
        HeldOutCell cell = new HeldOutCell(Target.byFlag("nginx"), HOSTS, 120, 1, new EnvoyVersion(1, 40));
        TuneRequest req = cell.request();
        List<SuiteScenario> runOn = new ArrayList<>();
        for (String name : List.of("held-refused", "held-35-bursts")) {
            for (HeldOut h : HeldOutScenarios.of(HOSTS, req.rps(), 1)) {
                if (h.name().equals(name)) {
                    runOn.add(h.scenario());
                }
            }
        }
        runOn.add(new DefaultSuite(HOSTS, req.rps(), 1, 0)
                .scenarios().stream()
                        .filter(s -> s.name().equals("shared-outage"))
                        .findFirst()
                        .orElseThrow());
        TuneRuns runner = new TuneRuns(2);
        List<TuneRuns.Job> baseJobs = new ArrayList<>();
        for (SuiteScenario s : runOn) {
            baseJobs.add(s.offJob(req, 1));
            baseJobs.add(s.correctJob(req, 1));
        }
        List<RunFigures> base = runner.run(baseJobs, u -> {});
        NginxUpstreamConfig now = ((NginxRun) req.currentProfile()).config();
        int gateway = NextUpstream.HTTP_502 | NextUpstream.HTTP_503 | NextUpstream.HTTP_504;
        int swept = 0;
        int fastAndRetrying = 0;
        for (int listing : new int[] {0, gateway, gateway | NextUpstream.HTTP_500}) {
            for (int fails : new int[] {1, 2, 3, 5, 10, 20, 50, 100, 200}) {
                for (long timeout : new long[] {1, 2, 10, 30}) {
                    List<NginxServer> servers = new ArrayList<>();
                    for (NginxServer s : now.servers()) {
                        servers.add(s.withMaxFails(fails).withFailTimeoutSeconds(timeout));
                    }
                    NginxRun run = new NginxRun(now.withServers(servers)
                            .withNextUpstream(
                                    new NextUpstream(NextUpstream.ERROR | NextUpstream.TIMEOUT | listing, 0)));
                    List<TuneRuns.Job> jobs = new ArrayList<>();
                    for (SuiteScenario s : runOn) {
                        jobs.add(new TuneRuns.Job(s, s.with(1, req.current(), 0, req.envoyVersion()), run));
                    }
                    List<RunFigures> f = runner.run(jobs, u -> {});
                    ScenarioScore refused = score(runOn, f, base, 0);
                    ScenarioScore partial = score(runOn, f, base, 1);
                    ScenarioScore outage = score(runOn, f, base, 2);
                    swept++;
                    String what = "max_fails=" + fails + " fail_timeout=" + timeout + "s listing " + listing;
                    if (refused.detectSeconds() <= 10 && partial.removedPercent() >= 50) {
                        // out in time and the 35 % failure's 5xx retried: healthy servers out in the 20 % outage
                        fastAndRetrying++;
                        assertThat(outage.falseEjections()).as(what).isPositive();
                    }
                    if (listing == 0) {
                        // 5xx neither retried nor counted: nothing of the 35 % failure removed
                        assertThat(partial.removedPercent()).as(what).isLessThan(50);
                    }
                }
            }
        }
        assertThat(swept).isEqualTo(108);
        assertThat(fastAndRetrying).isGreaterThan(40);
        // the recommendation keeps the retries, never takes the refusing server out, and the output says why
        Set<String> names = new HashSet<>(HeldOutCell.TUNED_ON);
        names.add("one-host-refused");
        TuneResult r = Tuner.tune(cell.request(names), u -> {});
        assertThat(r.recommended().setting().label()).isNotNull();
        assertThat(req.target().label(r.recommended().setting()))
                .isEqualTo("max_fails=0 fail_timeout=10s +502/503/504");
        assertThat(r.recommended().score("one-host-refused").detectSeconds()).isNaN();
        assertThat(r.cannotCatch())
                .anyMatch(l -> l.startsWith("one-host-refused (a host refusing every connection): no admissible setting"
                                + " takes it out within 10 s and removes as much as the recommendation: the"
                                + " recommendation never takes it out; the current settings, max_fails=1"
                                + " fail_timeout=10s -5xx, take it out in 0.0 s and meet every constraint but remove")
                        && l.contains("nginx counts a 5xx it retries on the next server"));
    }

    private static ScenarioScore score(List<SuiteScenario> runOn, List<RunFigures> f, List<RunFigures> base, int i) {
        return new ScenarioScore(
                runOn.get(i), List.of(f.get(i)), List.of(base.get(2 * i)), List.of(base.get(2 * i + 1)));
    }
}
