package dev.outlierlab.engine.haproxy;

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
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HAProxy profile against the real HAProxy (Debian's 2.6 at /usr/sbin/haproxy): each scenario starts HAProxy
 * on 127.0.0.1 with its own configuration in front of scripted backends (with their own {@code /health}), sends
 * one request every 20 ms for a few seconds, and replays HAProxy's log and the checks the backends answered (when
 * received and when answered) through the lab's {@link HaproxyDetector}: every DOWN and UP must agree in order and
 * within one request's spacing, every request must have gone to a server the lab has UP, every {@code <NOSRV>} must
 * come while the lab has them all DOWN. HAProxy runs one thread ({@code nbthread 1}), so that it handles responses,
 * checks and trips in one event loop, and logs when it handles each response's headers (a Lua action,
 * {@link HaproxyLogReplay#RESPONSE_MARK_LUA}): the lab takes each outcome at that time, not when the request ended.
 * Skipped when HAProxy is not installed.
 */
class HaproxyDifferentialTest {
    static final String HAPROXY = "/usr/sbin/haproxy";
    static final long SPACING_MS = 20;

    @TempDir
    Path tmp;

    /** A server: traffic script, health script, refusing until, and its server-line options after the address. */
    record Backend(BackendScript script, BackendScript health, long listenFromMillis, String options) {}

    record Scenario(String name, List<Backend> backends, long durationMillis, Consumer<HaproxyLogReplay> shows) {}

    static Backend server(BackendScript script, String options) {
        return new Backend(script, BackendScript.ok(), 0, options);
    }

    static List<Scenario> scenarios() {
        Backend ok = server(BackendScript.ok(), "check inter 500");
        String l7 = "check inter 500 observe layer7 ";
        return List.of(
                new Scenario(
                        "observe without check does nothing",
                        List.of(
                                server(BackendScript.always(503), "observe layer7 error-limit 2 on-error mark-down"),
                                ok),
                        2000,
                        r -> {
                            assertThat(r.downs()).isZero();
                            assertThat(r.clientErrors).isBetween(45, 55);
                        }),
                new Scenario(
                        "defaults, /health 200, a third of requests failing: never DOWN",
                        List.of(server(BackendScript.randomly(33, 503, 5), "check inter 500 observe layer7"), ok),
                        3000,
                        r -> {
                            assertThat(r.downs()).isZero();
                            assertThat(r.clientErrors).isPositive();
                        }),
                new Scenario(
                        "defaults, every request failing, checks every 500 ms: never DOWN",
                        List.of(server(BackendScript.always(503), "check inter 500 observe layer7"), ok),
                        3000,
                        r -> {
                            assertThat(r.trips()).isGreaterThanOrEqualTo(4);
                            assertThat(r.downs()).isZero();
                        }),
                new Scenario(
                        "defaults, every request failing, checks every 2 s: DOWN after three trips",
                        List.of(server(BackendScript.always(503), "check observe layer7"), ok),
                        3000,
                        r -> {
                            assertThat(r.trips()).isGreaterThanOrEqualTo(3);
                            assertThat(r.downs()).isPositive();
                        }),
                new Scenario(
                        "mark-down flaps while /health answers 200",
                        List.of(server(BackendScript.always(503), l7 + "error-limit 3 on-error mark-down"), ok),
                        3000,
                        r -> assertThat(r.downs()).isGreaterThanOrEqualTo(2)),
                new Scenario(
                        "sudden-death needs two trips",
                        List.of(
                                server(BackendScript.inRow(3, 12, 503), l7 + "error-limit 3 on-error sudden-death"),
                                ok),
                        3000,
                        r -> assertThat(r.trips()).isGreaterThanOrEqualTo(2)),
                new Scenario(
                        "fastinter brings it back sooner",
                        List.of(
                                server(
                                        BackendScript.until(1000, 503),
                                        l7 + "fastinter 100 error-limit 3 on-error mark-down"),
                                ok),
                        2500,
                        r -> {
                            assertThat(r.downs()).isPositive();
                            assertThat(r.ups()).isPositive();
                        }),
                new Scenario(
                        "a /health sharing the fault keeps it DOWN until recovery",
                        List.of(
                                new Backend(
                                        BackendScript.until(1500, 503),
                                        BackendScript.until(1500, 503),
                                        0,
                                        l7 + "error-limit 3 on-error mark-down"),
                                ok),
                        3000,
                        r -> {
                            assertThat(r.downs()).isPositive();
                            assertThat(r.ups()).isPositive();
                        }),
                new Scenario(
                        "refused until 1.5 s, observe layer4",
                        List.of(
                                new Backend(
                                        BackendScript.ok(),
                                        BackendScript.ok(),
                                        1500,
                                        "check inter 500 observe layer4 error-limit 2 on-error mark-down"),
                                ok),
                        3000,
                        r -> assertThat(r.downs()).isPositive()),
                new Scenario(
                        "layer4 ignores 503",
                        List.of(
                                server(
                                        BackendScript.always(503),
                                        "check inter 500 observe layer4 error-limit 2 " + "on-error mark-down"),
                                ok),
                        2000,
                        r -> assertThat(r.downs()).isZero()),
                new Scenario(
                        "read timeouts are layer7 errors",
                        List.of(
                                server(
                                        BackendScript.slowUntil(2500, 1500),
                                        "check inter 5000 observe layer7 error-limit 2 on-error mark-down"),
                                ok),
                        3000,
                        r -> assertThat(r.downs()).isPositive()),
                new Scenario(
                        "half failing at random, error-limit 2 fail-check",
                        List.of(server(BackendScript.randomly(50, 500, 11), l7 + "error-limit 2"), ok),
                        3000,
                        r -> assertThat(r.trips()).isPositive()),
                new Scenario(
                        "a trip voids the check in flight (/health answers after 250 ms)",
                        List.of(
                                new Backend(
                                        BackendScript.randomly(50, 500, 11),
                                        BackendScript.slowUntil(60_000, 250),
                                        0,
                                        l7 + "error-limit 2"),
                                ok),
                        3000,
                        r -> assertThat(r.voided()).isPositive()));
    }

    @TestFactory
    Stream<DynamicTest> everyScenarioAgreesWithTheRealServer() throws Exception {
        assumeTrue(ProxyProcess.available(HAPROXY), "HAProxy is not installed at " + HAPROXY);
        return DifferentialRuns.inParallel(scenarios(), tmp, Scenario::name, HaproxyDifferentialTest::run, (s, r) -> {
            System.out.printf(
                    "haproxy %-66s requests %d trips %d down %d up %d client errors %d%n",
                    s.name(), r.requests, r.trips(), r.downs(), r.ups(), r.clientErrors);
            assertThat(r.disagreements).as(s.name()).isEmpty();
            assertThat(r.requests).isGreaterThan(50);
            s.shows().accept(r);
        });
    }

    static HaproxyLogReplay run(Scenario s, Path dir) throws Exception {
        List<BackendScript> scripts = new ArrayList<>();
        List<BackendScript> health = new ArrayList<>();
        long[] from = new long[s.backends().size()];
        for (int i = 0; i < from.length; i++) {
            scripts.add(s.backends().get(i).script());
            health.add(s.backends().get(i).health());
            from[i] = s.backends().get(i).listenFromMillis();
        }
        try (BackendSet backends = new BackendSet(scripts, health, from)) {
            int port = ScriptedBackend.freePort();
            Files.writeString(dir.resolve("mark.lua"), HaproxyLogReplay.RESPONSE_MARK_LUA);
            StringBuilder cfg = new StringBuilder("global\n  nbthread 1\n  lua-load " + dir.resolve("mark.lua")
                    + "\n  log stdout format rfc5424 local0\n"
                    + "defaults\n  mode http\n  log global\n  option log-health-checks\n  timeout connect 1s\n"
                    + "  timeout client 5s\n  timeout server 1s\n  timeout check 1s\n  retries 0\n"
                    + "frontend fe\n  bind 127.0.0.1:" + port + "\n  default_backend be\n  log-format "
                    + HaproxyLogReplay.LOG_FORMAT + "\nbackend be\n  balance roundrobin\n  "
                    + "http-response lua.mark\n"
                    + "  option httpchk GET /health\n");
            for (int i = 0; i < from.length; i++) {
                cfg.append("  server s")
                        .append(i)
                        .append(' ')
                        .append(backends.get(i).address())
                        .append(' ')
                        .append(s.backends().get(i).options())
                        .append('\n');
            }
            Files.writeString(dir.resolve("haproxy.cfg"), cfg);
            HaproxyLogReplay replay = new HaproxyLogReplay(HaproxyConfigs.servers(cfg.toString(), backends));
            try (ProxyProcess haproxy = ProxyProcess.start(
                    List.of(HAPROXY, "-db", "-f", dir.resolve("haproxy.cfg").toString()), dir, port)) {
                long start = System.currentTimeMillis();
                backends.start(start);
                LoadDriver.run(port, SPACING_MS, s.durationMillis(), start, () -> {
                    backends.openDue();
                    backends.keepClearOfChecks();
                });
            }
            replay.readLog(Files.readAllLines(dir.resolve("process.out")));
            List<List<long[]>> answered = new ArrayList<>();
            for (int i = 0; i < backends.size(); i++) {
                answered.add(backends.get(i).checks());
            }
            replay.addChecks(answered);
            replay.replay();
            return replay;
        }
    }

    /** The lab's servers for the test's own server lines (a reader in the config module reads users' files). */
    static final class HaproxyConfigs {
        private HaproxyConfigs() {}

        static List<HaproxyServer> servers(String cfg, BackendSet backends) {
            List<HaproxyServer> out = new ArrayList<>();
            int i = 0;
            for (String line : cfg.split("\n")) {
                String[] w = line.trim().split(" +");
                if (!w[0].equals("server")) {
                    continue;
                }
                HaproxyServer s = new HaproxyServer(
                        w[1],
                        backends.get(i++).address(),
                        false,
                        Observe.NONE,
                        HaproxyServer.DEFAULT_ERROR_LIMIT,
                        OnError.FAIL_CHECK,
                        HaproxyServer.DEFAULT_INTER_NANOS,
                        0,
                        0,
                        HaproxyServer.DEFAULT_RISE,
                        HaproxyServer.DEFAULT_FALL);
                boolean check = false;
                Observe observe = Observe.NONE;
                int limit = s.errorLimit();
                OnError onError = s.onError();
                long inter = s.interNanos();
                long fastinter = 0;
                for (int k = 3; k < w.length; k++) {
                    switch (w[k]) {
                        case "check" -> check = true;
                        case "observe" -> observe = w[++k].equals("layer4") ? Observe.LAYER4 : Observe.LAYER7;
                        case "error-limit" -> limit = Integer.parseInt(w[++k]);
                        case "on-error" -> onError = OnError.of(w[++k]);
                        case "inter" -> inter = Long.parseLong(w[++k]) * Durations.MILLISECOND;
                        case "fastinter" -> fastinter = Long.parseLong(w[++k]) * Durations.MILLISECOND;
                        default -> throw new IllegalArgumentException(w[k]);
                    }
                }
                out.add(new HaproxyServer(
                        w[1], s.address(), check, observe, limit, onError, inter, fastinter, 0, s.rise(), s.fall()));
            }
            return out;
        }
    }
}
