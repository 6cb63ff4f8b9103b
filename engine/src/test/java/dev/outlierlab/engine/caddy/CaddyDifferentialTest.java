package dev.outlierlab.engine.caddy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.proxies.BackendScript;
import dev.outlierlab.engine.proxies.BackendSet;
import dev.outlierlab.engine.proxies.DifferentialRuns;
import dev.outlierlab.engine.proxies.LoadDriver;
import dev.outlierlab.engine.proxies.ProxyProcess;
import dev.outlierlab.engine.proxies.ScriptedBackend;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Caddy profile against the real Caddy (Debian's 2.6 at /usr/bin/caddy): each scenario starts Caddy bound to
 * 127.0.0.1 with its own Caddyfile, data and configuration directories, in front of scripted backends, sends one
 * request every 20 ms for a few seconds, and replays Caddy's debug log through the lab's detector and selection
 * policy: every upstream selected, every "no upstreams available", every retry and every client status must
 * agree. Skipped when Caddy is not installed.
 */
class CaddyDifferentialTest {
    static final String CADDY = "/usr/bin/caddy";
    static final long SPACING_MS = 20;
    static final long MS = Durations.MILLISECOND;

    @TempDir
    Path tmp;

    record Backend(BackendScript script, long listenFromMillis) {}

    /** A scenario: backends, the reverse_proxy block's lines, the lab's view of them, and what it must show. */
    record Scenario(
            String name,
            List<Backend> backends,
            List<String> directives,
            CaddyPassiveConfig lab,
            long durationMillis,
            Consumer<CaddyLogReplay> shows) {}

    static Backend b(BackendScript script) {
        return new Backend(script, 0);
    }

    static CaddyPassiveConfig lab(
            String policy, long failMs, int maxFails, List<Integer> statuses, long latencyMs, long tryMs) {
        return new CaddyPassiveConfig(
                List.of("a", "b"),
                failMs * MS,
                maxFails,
                statuses,
                latencyMs * MS,
                tryMs * MS,
                0,
                0,
                CaddySelection.Policy.of(policy));
    }

    static List<Scenario> scenarios() {
        Backend ok = b(BackendScript.ok());
        Backend dead = new Backend(BackendScript.ok(), 60_000);
        return List.of(
                new Scenario(
                        "5xx never counts without unhealthy_status",
                        List.of(b(BackendScript.always(503)), ok),
                        List.of("lb_policy first", "fail_duration 1s"),
                        lab("first", 1000, 0, List.of(), 0, 0),
                        2000,
                        r -> {
                            assertThat(r.ejections()).isZero();
                            assertThat(r.clientErrors).isEqualTo(r.requests);
                        }),
                new Scenario(
                        "max_fails defaults to 1: a burst of one every fail_duration",
                        List.of(b(BackendScript.always(503)), ok),
                        List.of("lb_policy first", "fail_duration 1s", "unhealthy_status 5xx"),
                        lab("first", 1000, 0, List.of(5), 0, 0),
                        3000,
                        r -> {
                            assertThat(r.ejections()).isGreaterThanOrEqualTo(3);
                            assertThat((long) r.clientErrors).isEqualTo(r.ejections()); // one per fail_duration
                        }),
                new Scenario(
                        "a dead host without lb_try_duration: dial errors reach the client",
                        List.of(dead, ok),
                        List.of("lb_policy first", "fail_duration 1s", "max_fails 3"),
                        lab("first", 1000, 3, List.of(), 0, 0),
                        2500,
                        r -> assertThat(r.clientErrors).isGreaterThanOrEqualTo(6)),
                new Scenario(
                        "a dead host with lb_try_duration: retried away",
                        List.of(dead, ok),
                        List.of("lb_policy first", "fail_duration 1s", "max_fails 3", "lb_try_duration 1s"),
                        lab("first", 1000, 3, List.of(), 0, 1000),
                        2500,
                        r -> {
                            assertThat(r.clientErrors).isZero();
                            assertThat(r.retries).isPositive();
                        }),
                new Scenario(
                        "a slow 503 counts twice",
                        List.of(b((n, t) -> new BackendScript.Answer(503, 150)), ok),
                        List.of(
                                "lb_policy first",
                                "fail_duration 1s",
                                "max_fails 2",
                                "unhealthy_status 503",
                                "unhealthy_latency 100ms"),
                        lab("first", 1000, 2, List.of(503), 100, 0),
                        2500,
                        r -> {
                            // at max_fails 2 one slow 503 is enough: every ejection took exactly one request
                            assertThat(r.ejections()).isGreaterThanOrEqualTo(2);
                            assertThat((long) r.clientErrors).isEqualTo(r.ejections());
                        }),
                new Scenario(
                        "a fast 503 counts once: the first ejection takes two",
                        List.of(b(BackendScript.always(503)), ok),
                        List.of(
                                "lb_policy first",
                                "fail_duration 1s",
                                "max_fails 2",
                                "unhealthy_status 503",
                                "unhealthy_latency 100ms"),
                        lab("first", 1000, 2, List.of(503), 100, 0),
                        2500,
                        r -> {
                            // the first ejection takes two 503s (later ones may take one: the window slides)
                            assertThat(r.ejections()).isGreaterThanOrEqualTo(2);
                            assertThat((long) r.clientErrors).isGreaterThan(r.ejections());
                        }),
                new Scenario(
                        "a slow 200 counts once, by latency alone",
                        List.of(b((n, t) -> new BackendScript.Answer(200, 150)), ok),
                        List.of("lb_policy first", "fail_duration 1s", "max_fails 1", "unhealthy_latency 100ms"),
                        lab("first", 1000, 1, List.of(), 100, 0),
                        2500,
                        r -> {
                            assertThat(r.ejections()).isGreaterThanOrEqualTo(2);
                            assertThat(r.clientErrors).isZero();
                        }),
                new Scenario(
                        "a third failing at random, round robin, max_fails 3",
                        List.of(b(BackendScript.randomly(33, 500, 9)), ok),
                        List.of("lb_policy round_robin", "fail_duration 1s", "max_fails 3", "unhealthy_status 5xx"),
                        lab("round_robin", 1000, 3, List.of(5), 0, 0),
                        3000,
                        r -> assertThat(r.ejections()).isPositive()),
                new Scenario(
                        "refused until 1.5 s, then recovers",
                        List.of(new Backend(BackendScript.ok(), 1500), ok),
                        List.of("lb_policy round_robin", "fail_duration 500ms", "max_fails 1", "lb_try_duration 1s"),
                        lab("round_robin", 500, 1, List.of(), 0, 1000),
                        3000,
                        r -> {
                            assertThat(r.ejections()).isPositive();
                            assertThat(r.clientErrors).isZero();
                        }),
                new Scenario(
                        "header timeouts count and are retried",
                        List.of(b(BackendScript.slowUntil(1200, 400)), ok),
                        List.of(
                                "lb_policy first",
                                "fail_duration 1s",
                                "lb_try_duration 1s",
                                "transport http {\n\t\t\tresponse_header_timeout 200ms\n\t\t}"),
                        lab("first", 1000, 1, List.of(), 0, 1000),
                        3000,
                        r -> {
                            assertThat(r.ejections()).isPositive();
                            assertThat(r.clientErrors).isZero();
                        }),
                new Scenario(
                        "no response_header_timeout: a try that waits is no failure",
                        // the same slow answers as above under Caddy's default transport: the round trip only waits,
                        // so it is neither counted nor retried (the lab's held requests)
                        List.of(b(BackendScript.slowUntil(1200, 400)), ok),
                        List.of("lb_policy first", "fail_duration 1s", "lb_try_duration 1s"),
                        lab("first", 1000, 1, List.of(), 0, 1000),
                        3000,
                        r -> {
                            assertThat(r.ejections()).isZero();
                            assertThat(r.retries).isZero();
                            assertThat(r.clientErrors).isZero();
                        }),
                new Scenario(
                        "every upstream down: 502 then no upstreams available",
                        List.of(dead, new Backend(BackendScript.ok(), 60_000)),
                        List.of("lb_policy first", "fail_duration 1s", "max_fails 2"),
                        lab("first", 1000, 2, List.of(), 0, 0),
                        2000,
                        r -> {
                            assertThat(r.noUpstreams).isPositive();
                            assertThat(r.clientErrors).isEqualTo(r.requests);
                        }),
                new Scenario(
                        "four in a row of 25, round robin, max_fails 3",
                        List.of(b(BackendScript.inRow(4, 25, 502)), ok),
                        List.of("lb_policy round_robin", "fail_duration 2s", "max_fails 3", "unhealthy_status 502"),
                        lab("round_robin", 2000, 3, List.of(502), 0, 0),
                        3000,
                        r -> assertThat(r.ejections()).isPositive()));
    }

    @TestFactory
    Stream<DynamicTest> everyScenarioAgreesWithTheRealServer() throws Exception {
        assumeTrue(ProxyProcess.available(CADDY), "Caddy is not installed at " + CADDY);
        return DifferentialRuns.inParallel(scenarios(), tmp, Scenario::name, CaddyDifferentialTest::run, (s, r) -> {
            System.out.printf(
                    "caddy %-66s requests %d ejections %d returns %d retries %d client errors %d"
                            + " late forgets %d%n",
                    s.name(), r.requests, r.ejections(), r.returns(), r.retries, r.clientErrors, r.lateForgets);
            assertThat(r.disagreements).as(s.name()).isEmpty();
            assertThat(r.requests).isGreaterThan(50);
            s.shows().accept(r);
        });
    }

    static CaddyLogReplay run(Scenario s, Path dir) throws Exception {
        List<BackendScript> scripts = new ArrayList<>();
        List<BackendScript> health = new ArrayList<>();
        long[] from = new long[s.backends().size()];
        for (int i = 0; i < from.length; i++) {
            scripts.add(s.backends().get(i).script());
            health.add(BackendScript.ok());
            from[i] = s.backends().get(i).listenFromMillis();
        }
        try (BackendSet backends = new BackendSet(scripts, health, from)) {
            int port = ScriptedBackend.freePort();
            List<String> addresses = new ArrayList<>();
            for (int i = 0; i < backends.size(); i++) {
                addresses.add(backends.get(i).address());
            }
            StringBuilder file = new StringBuilder("{\n\tadmin off\n\tdebug\n\tauto_https off\n\tstorage file_system "
                    + dir.resolve("data") + "\n\tlog {\n\t\toutput stderr\n\t\tformat json\n\t\tlevel DEBUG\n\t}\n}\n"
                    + "http://:" + port + " {\n\tbind 127.0.0.1\n\tlog {\n\t\toutput stderr\n"
                    + "\t\tformat json\n\t}\n\treverse_proxy " + String.join(" ", addresses) + " {\n");
            for (String d : s.directives()) {
                file.append("\t\t").append(d).append('\n');
            }
            file.append("\t}\n}\n");
            Files.writeString(dir.resolve("Caddyfile"), file);
            CaddyPassiveConfig lab = new CaddyPassiveConfig(
                    addresses,
                    s.lab().failDurationNanos(),
                    s.lab().maxFails(),
                    s.lab().unhealthyStatus(),
                    s.lab().unhealthyLatencyNanos(),
                    s.lab().tryDurationNanos(),
                    s.lab().tryIntervalNanos(),
                    s.lab().retries(),
                    s.lab().policy());
            Map<String, String> env = Map.of(
                    "HOME",
                    dir.toString(),
                    "XDG_DATA_HOME",
                    dir.resolve("data").toString(),
                    "XDG_CONFIG_HOME",
                    dir.resolve("config").toString());
            try (ProxyProcess caddy = ProxyProcess.start(
                    List.of(CADDY, "run", "--config", dir.resolve("Caddyfile").toString(), "--adapter", "caddyfile"),
                    dir,
                    port,
                    env)) {
                long start = System.currentTimeMillis();
                backends.start(start);
                LoadDriver.run(port, SPACING_MS, s.durationMillis(), start, backends::openDue);
            }
            CaddyLogReplay replay = new CaddyLogReplay(lab);
            replay.replay(Files.readAllLines(dir.resolve("process.err")));
            return replay;
        }
    }
}
