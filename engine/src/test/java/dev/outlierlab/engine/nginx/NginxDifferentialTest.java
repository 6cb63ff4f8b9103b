package dev.outlierlab.engine.nginx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.outlierlab.engine.proxies.BackendScript;
import dev.outlierlab.engine.proxies.DifferentialRuns;
import dev.outlierlab.engine.proxies.LoadDriver;
import dev.outlierlab.engine.proxies.ProxyProcess;
import dev.outlierlab.engine.proxies.ScriptedBackend;
import java.io.IOException;
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
 * The nginx profile against the real nginx (Debian's 1.22 at /usr/sbin/nginx): each scenario starts nginx on
 * 127.0.0.1 with its own prefix and configuration, in front of scripted backends, sends one request every 20 ms
 * for a few seconds, then replays nginx's own access log ({@code $upstream_addr}, {@code $upstream_status}) through
 * the lab's detectors, one per worker process, and requires every selection, every attempt count, every client
 * status and every "upstream server temporarily disabled" to agree. Scenarios run four at a time. Skipped when
 * nginx is not installed.
 */
class NginxDifferentialTest {
    static final String NGINX = "/usr/sbin/nginx";
    static final long SPACING_MS = 20;

    @TempDir
    Path tmp;

    /**
     * One server line: its script, when it starts listening (0: at once), weight, max_fails, fail_timeout, and
     * whether it is {@code backup}.
     */
    record Backend(
            BackendScript script, long listenFromMillis, int weight, int maxFails, long failTimeout, boolean backup) {
        static Backend of(BackendScript script) {
            return new Backend(script, 0, 1, 1, 1, false);
        }

        Backend failing(int newMaxFails, long newFailTimeout) {
            return new Backend(script, listenFromMillis, weight, newMaxFails, newFailTimeout, backup);
        }

        Backend weighted(int newWeight) {
            return new Backend(script, listenFromMillis, newWeight, maxFails, failTimeout, backup);
        }

        Backend refusingUntil(long millis) {
            return new Backend(script, millis, weight, maxFails, failTimeout, backup);
        }

        Backend asBackup() {
            return new Backend(script, listenFromMillis, weight, maxFails, failTimeout, true);
        }
    }

    /** A scenario: backends, the location's directives, workers, zone, how long, and what it must show. */
    record Scenario(
            String name,
            List<Backend> backends,
            String nextUpstream,
            int tries,
            int workers,
            boolean zone,
            long durationMillis,
            Consumer<NginxLogReplay> shows,
            long readTimeoutMillis) {
        /** With nginx reading for up to 1 s, so that a machine busy with other work does not time out. */
        Scenario(
                String name,
                List<Backend> backends,
                String nextUpstream,
                int tries,
                int workers,
                boolean zone,
                long durationMillis,
                Consumer<NginxLogReplay> shows) {
            this(name, backends, nextUpstream, tries, workers, zone, durationMillis, shows, 1000);
        }
    }

    static List<Scenario> scenarios() {
        Backend ok = Backend.of(BackendScript.ok());
        return List.of(
                new Scenario(
                        "unlisted 503 is never counted",
                        List.of(Backend.of(BackendScript.always(503)), ok),
                        "error timeout",
                        0,
                        1,
                        false,
                        2000,
                        r -> {
                            assertThat(r.ejections()).isZero();
                            assertThat(r.clientErrors).isBetween(45, 55);
                        }),
                new Scenario(
                        "listed http_503 ejects and hides the failures",
                        List.of(Backend.of(BackendScript.always(503)), ok),
                        "error timeout http_503",
                        0,
                        1,
                        false,
                        3000,
                        r -> {
                            assertThat(r.ejections()).isGreaterThanOrEqualTo(2);
                            assertThat(r.clientErrors).isZero();
                        }),
                new Scenario(
                        "a 503 on the last try is passed on and not counted",
                        List.of(Backend.of(BackendScript.always(503)), Backend.of(BackendScript.always(503))),
                        "error timeout http_503",
                        0,
                        1,
                        false,
                        2000,
                        r -> assertThat(r.clientErrors).isPositive()),
                new Scenario(
                        "max_fails=3 counts failures, not failures in a row",
                        List.of(Backend.of(BackendScript.randomly(34, 503, 7)).failing(3, 2), ok.failing(3, 2)),
                        "error timeout http_503",
                        0,
                        1,
                        false,
                        3000,
                        r -> assertThat(r.ejections()).isPositive()),
                new Scenario(
                        "refused until 1.5 s, then recovers",
                        List.of(ok.refusingUntil(1500), ok),
                        "error timeout",
                        0,
                        1,
                        false,
                        3000,
                        r -> {
                            assertThat(r.ejections()).isPositive();
                            assertThat(r.returns()).isPositive();
                            assertThat(r.clientErrors).isZero();
                        }),
                new Scenario(
                        "timeouts count and are retried",
                        List.of(Backend.of(BackendScript.slowUntil(1200, 600)), ok),
                        "error timeout",
                        0,
                        1,
                        false,
                        3000,
                        r -> {
                            assertThat(r.ejections()).isPositive();
                            assertThat(r.clientErrors).isZero();
                        },
                        300),
                new Scenario(
                        "a one-server upstream is never ejected",
                        List.of(Backend.of(BackendScript.until(1000, 503))),
                        "error timeout http_503",
                        0,
                        1,
                        false,
                        2000,
                        r -> {
                            assertThat(r.ejections()).isZero();
                            assertThat(r.clientErrors).isBetween(45, 55);
                        }),
                new Scenario(
                        "every server out: 502 no live upstreams after the backends recover",
                        List.of(
                                ok.refusingUntil(300).failing(1, 2),
                                ok.refusingUntil(300).failing(1, 2)),
                        "error timeout",
                        0,
                        1,
                        false,
                        3000,
                        r -> assertThat(r.noLive).isGreaterThan(50)),
                new Scenario(
                        "weights 3:1, the heavy one failing: effective_weight penalty",
                        List.of(
                                Backend.of(BackendScript.inRow(2, 10, 503))
                                        .weighted(3)
                                        .failing(3, 1),
                                ok),
                        "error timeout http_503",
                        0,
                        1,
                        false,
                        3000,
                        r -> assertThat(r.ejections()).isPositive()),
                new Scenario(
                        "two workers without zone count apart",
                        List.of(Backend.of(BackendScript.randomly(50, 503, 3)).failing(2, 1), ok.failing(2, 1)),
                        "error timeout http_503",
                        0,
                        2,
                        false,
                        3000,
                        r -> assertThat(r.ejections()).isPositive()),
                new Scenario(
                        "two workers with zone count together",
                        List.of(Backend.of(BackendScript.randomly(50, 503, 3)).failing(2, 1), ok.failing(2, 1)),
                        "error timeout http_503",
                        0,
                        2,
                        true,
                        3000,
                        r -> assertThat(r.ejections()).isPositive()),
                new Scenario(
                        "max_fails=0 never ejects",
                        List.of(Backend.of(BackendScript.always(503)).failing(0, 1), ok),
                        "error timeout http_503",
                        0,
                        1,
                        false,
                        2000,
                        r -> {
                            assertThat(r.ejections()).isZero();
                            assertThat(r.clientErrors).isZero();
                        }),
                new Scenario(
                        "one failing server and a backup: counted, taken out, the backup answers",
                        List.of(Backend.of(BackendScript.always(503)), ok.asBackup()),
                        "error timeout http_503",
                        0,
                        1,
                        false,
                        3000,
                        r -> {
                            assertThat(r.ejections()).isGreaterThanOrEqualTo(2);
                            assertThat(r.clientErrors).isZero();
                        }),
                new Scenario(
                        "both servers refusing and a backup: every request answered by the backup",
                        List.of(ok.refusingUntil(60_000), ok.refusingUntil(60_000), ok.asBackup()),
                        "error timeout",
                        0,
                        1,
                        false,
                        3000,
                        r -> {
                            assertThat(r.ejections()).isGreaterThanOrEqualTo(4);
                            assertThat(r.clientErrors).isZero();
                            assertThat(r.noLive).isZero();
                        }),
                new Scenario(
                        "servers and backup out: no live upstreams only once the backup is out too",
                        List.of(
                                ok.refusingUntil(300).failing(1, 2),
                                ok.refusingUntil(300).failing(1, 2).asBackup()),
                        "error timeout",
                        0,
                        1,
                        false,
                        3000,
                        r -> assertThat(r.noLive).isGreaterThan(50)),
                new Scenario(
                        "proxy_next_upstream_tries 1: a listed 503 never counts",
                        List.of(Backend.of(BackendScript.always(503)), ok),
                        "error timeout http_503",
                        1,
                        1,
                        false,
                        2000,
                        r -> {
                            assertThat(r.ejections()).isZero();
                            assertThat(r.clientErrors).isBetween(45, 55);
                        }));
    }

    @TestFactory
    Stream<DynamicTest> everyScenarioAgreesWithTheRealServer() throws Exception {
        assumeTrue(ProxyProcess.available(NGINX), "nginx is not installed at " + NGINX);
        return DifferentialRuns.inParallel(scenarios(), tmp, Scenario::name, NginxDifferentialTest::run, (s, r) -> {
            System.out.printf(
                    "nginx %-70s requests %d attempts %d ejections %d returns %d client errors %d%n",
                    s.name(), r.requests, r.attempts, r.ejections(), r.returns(), r.clientErrors);
            assertThat(r.disagreements).as(s.name()).isEmpty();
            assertThat(r.requests).isGreaterThan(50);
            s.shows().accept(r);
        });
    }

    static NginxLogReplay run(Scenario s, Path dir) throws Exception {
        List<ScriptedBackend> backends = new ArrayList<>();
        try {
            List<NginxServer> servers = new ArrayList<>();
            for (Backend b : s.backends()) {
                ScriptedBackend backend = new ScriptedBackend(b.script());
                backends.add(backend);
                backend.warmUp(b.listenFromMillis() == 0);
                servers.add(new NginxServer(
                        backend.address(), b.weight(), b.maxFails(), b.failTimeout(), false, b.backup()));
            }
            NextUpstream next = new NextUpstream(
                    NextUpstream.parseWords(List.of(s.nextUpstream().split(" "))), s.tries());
            NginxUpstreamConfig config = new NginxUpstreamConfig("backend", servers, next, s.workers(), s.zone());
            int port = ScriptedBackend.freePort();
            Files.writeString(dir.resolve("nginx.conf"), conf(config, s, dir, port));
            Files.createDirectories(dir.resolve("logs"));
            List<String> command = List.of(
                    NGINX,
                    "-p",
                    dir.toString(),
                    "-c",
                    dir.resolve("nginx.conf").toString(),
                    "-e",
                    dir.resolve("error.log").toString());
            try (ProxyProcess nginx = ProxyProcess.start(command, dir, port)) {
                long start = System.currentTimeMillis();
                for (ScriptedBackend b : backends) {
                    b.startClock(start);
                }
                LoadDriver.run(port, SPACING_MS, s.durationMillis(), start, () -> {
                    long elapsed = System.currentTimeMillis() - start;
                    for (int i = 0; i < backends.size(); i++) {
                        long from = s.backends().get(i).listenFromMillis();
                        if (from > 0 && elapsed >= from) {
                            try {
                                backends.get(i).listen();
                            } catch (IOException e) {
                                throw new IllegalStateException(e);
                            }
                        }
                    }
                });
            }
            NginxLogReplay replay = new NginxLogReplay(config);
            replay.replay(Files.readAllLines(dir.resolve("access.log")));
            replay.compareEjections(Files.readAllLines(dir.resolve("error.log")));
            if (!s.zone() && s.workers() > 1 && replay.workersSeen() < 2) {
                replay.disagreements.add("only one worker handled requests");
            }
            return replay;
        } finally {
            for (ScriptedBackend b : backends) {
                b.close();
            }
        }
    }

    static String conf(NginxUpstreamConfig config, Scenario s, Path dir, int port) {
        StringBuilder servers = new StringBuilder();
        for (NginxServer server : config.servers()) {
            servers.append("    server ")
                    .append(server.name())
                    .append(" weight=")
                    .append(server.weight())
                    .append(" max_fails=")
                    .append(server.maxFails())
                    .append(" fail_timeout=")
                    .append(server.failTimeoutSeconds())
                    .append(server.backup() ? "s backup;\n" : "s;\n");
        }
        return "daemon off;\nmaster_process on;\nworker_processes " + s.workers() + ";\npid " + dir.resolve("nginx.pid")
                + ";\nerror_log " + dir.resolve("error.log") + " warn;\nevents { worker_connections 256; }\n"
                + "http {\n  access_log off;\n"
                + "  client_body_temp_path " + dir.resolve("body") + ";\n  proxy_temp_path " + dir.resolve("proxy")
                + ";\n  fastcgi_temp_path " + dir.resolve("fastcgi") + ";\n  uwsgi_temp_path " + dir.resolve("uwsgi")
                + ";\n  scgi_temp_path " + dir.resolve("scgi") + ";\n"
                + "  log_format lab " + NginxLogReplay.LOG_FORMAT + ";\n"
                + "  upstream backend {\n" + (s.zone() ? "    zone backend 64k;\n" : "") + servers + "  }\n"
                + "  server {\n    listen 127.0.0.1:" + port + ";\n    access_log " + dir.resolve("access.log")
                + " lab;\n    location / {\n      proxy_pass http://backend;\n      proxy_next_upstream "
                + s.nextUpstream() + ";\n      proxy_next_upstream_tries " + s.tries() + ";\n"
                + "      proxy_connect_timeout 1s;\n      proxy_read_timeout "
                + s.readTimeoutMillis() + "ms;\n    }\n  }\n}\n";
    }
}
