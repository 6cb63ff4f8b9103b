package dev.outlierlab.config.nginx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.nginx.NginxEvent;
import dev.outlierlab.engine.nginx.NginxUpstreamConfig;
import dev.outlierlab.sim.nginx.NginxRunResult;
import dev.outlierlab.sim.nginx.NginxSimulation;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.FaultPattern;
import dev.outlierlab.sim.scenario.FaultResult;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.scenario.TrafficSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * nginx's surprises, each run in the lab on the nginx.conf the differential test runs the real nginx with: the
 * upstream read from the file, the scenario's faults on its first server.
 */
class NginxSurprisesTest {
    static final long S = Durations.SECOND;

    static NginxUpstreamConfig read(String location, String servers, int workers, boolean zone) {
        return NginxUpstreamReader.readText(
                        "worker_processes " + workers + ";\nevents { }\nhttp {\n"
                                + "  upstream backend {\n" + (zone ? "    zone backend 64k;\n" : "") + servers + "  }\n"
                                + "  server {\n    listen 127.0.0.1:8080;\n    location / {\n      proxy_pass http://backend;\n"
                                + location + "    }\n  }\n}\n",
                        "nginx.conf",
                        null)
                .config();
    }

    static NginxRunResult run(NginxUpstreamConfig config, long seconds, int rps, FaultSpec... faults) {
        Scenario s = Scenario.builder()
                .name("nginx")
                .durationNanos(seconds * S)
                .seed(1)
                .cluster(new ClusterSpec(config.hosts(), 0))
                .traffic(new TrafficSpec(rps))
                .faults(List.of(faults))
                .build();
        return NginxSimulation.run(s, config);
    }

    static FaultSpec fault(
            String host, long fromS, long toS, long ppm, int status, FaultResult result, FaultPattern pattern) {
        return FaultSpec.builder()
                .hosts(List.of(host))
                .window(fromS * S, toS * S)
                .errorRatePpm(ppm)
                .status(status)
                .result(result)
                .pattern(pattern)
                .build();
    }

    static final String TWO = "    server 10.0.0.1:8080;\n    server 10.0.0.2:8080;\n";

    @Test
    void an503NotListedIsNeverCountedAndEveryOneReachesTheClient() {
        NginxRunResult r = run(
                read("", TWO, 1, false),
                60,
                10,
                fault("10.0.0.1:8080", 0, 60, 1_000_000, 503, null, FaultPattern.EVEN));
        assertThat(r.ejections()).isZero();
        assertThat(r.clientErrors()).isEqualTo(300); // every request the round robin gives it: half of 600
    }

    @Test
    void listingIt503RetriesItAwayFromTheClients() {
        NginxRunResult r = run(
                read("      proxy_next_upstream error timeout http_503;\n", TWO, 1, false),
                60,
                10,
                fault("10.0.0.1:8080", 0, 60, 1_000_000, 503, null, FaultPattern.EVEN));
        assertThat(r.clientErrors()).isZero();
        assertThat(r.ejections(0)).isEqualTo(6); // at 0 s, then a failed probe every 11 s: 11, 22, 33, 44, 55
        assertThat(r.attempts()[0]).isEqualTo(6);
    }

    @Test
    void maxFailsThreeOutAfter503_503_200_503ButTheSameBurstsThirteenSecondsApartNever() {
        String servers = "    server 10.0.0.1:8080 max_fails=3;\n    server 10.0.0.2:8080 max_fails=3;\n";
        NginxUpstreamConfig c = read("      proxy_next_upstream error timeout http_503;\n", servers, 1, false);
        // a third of its requests fail, in even spacing: 503, 503, 200, 503 within 10 s ejects
        NginxRunResult third = run(c, 60, 2, fault("10.0.0.1:8080", 0, 60, 666_667, 503, null, FaultPattern.EVEN));
        assertThat(third.ejections(0)).isPositive();
        // bursts of two failures 13 s apart (every request for 2 s, one a second, every 13 s) never eject
        FaultSpec[] bursts = new FaultSpec[10];
        for (int k = 0; k < bursts.length; k++) {
            bursts[k] = fault("10.0.0.1:8080", 13L * k, 13L * k + 2, 1_000_000, 503, null, FaultPattern.EVEN);
        }
        NginxRunResult apart = run(c, 130, 2, bursts);
        assertThat(apart.countedFailures()[0]).isEqualTo(20);
        assertThat(apart.ejections(0)).isZero();
    }

    @Test
    void twoWorkersWithoutZoneTakeTwiceTheFailuresAndTwiceTheProbes() {
        String servers = "    server 10.0.0.1:8080 max_fails=2;\n    server 10.0.0.2:8080 max_fails=2;\n";
        FaultSpec dead = fault("10.0.0.1:8080", 0, 60, 1_000_000, 503, FaultResult.CONNECT_FAILED, FaultPattern.EVEN);
        NginxRunResult one = run(read("", servers, 2, true), 60, 20, dead);
        NginxRunResult two = run(read("", servers, 2, false), 60, 20, dead);
        assertThat(two.countedFailures()[0]).isEqualTo(2 * one.countedFailures()[0]);
        assertThat(two.ejections(0)).isEqualTo(2 * one.ejections(0));
    }

    @Test
    void aOneServerUpstreamIsNeverEjectedAndAllOutAnswers502AfterRecovery() {
        NginxRunResult single = run(
                read("", "    server 10.0.0.1:8080;\n", 1, false),
                30,
                10,
                fault("10.0.0.1:8080", 0, 30, 1_000_000, 503, FaultResult.CONNECT_FAILED, FaultPattern.EVEN));
        assertThat(single.ejections()).isZero();
        assertThat(single.clientErrors()).isEqualTo(300);
        // both servers refuse for the first second, then recover: nginx answers 502 until 11 s
        NginxRunResult all = run(
                read("", TWO, 1, false),
                20,
                10,
                fault("10.0.0.1:8080", 0, 1, 1_000_000, 503, FaultResult.CONNECT_FAILED, FaultPattern.EVEN),
                fault("10.0.0.2:8080", 0, 1, 1_000_000, 503, FaultResult.CONNECT_FAILED, FaultPattern.EVEN));
        assertThat(all.noLiveUpstreams()).isEqualTo(109); // 0.1 s to 10.9 s
        assertThat(all.events())
                .filteredOn(e -> e.action() == NginxEvent.Action.UNEJECT)
                .extracting(NginxEvent::timeNanos)
                .containsExactly(11 * S, 11 * S);
    }
}
