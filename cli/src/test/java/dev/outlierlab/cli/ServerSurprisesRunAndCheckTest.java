package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each surprise of nginx's, HAProxy's and Caddy's passive checks, reproduced by {@code run} on a configuration the real
 * server accepts and flagged by {@code check} on the same file: two servers at 10 requests a second for a minute, the
 * first one failing.
 */
class ServerSurprisesRunAndCheckTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static final String LAB = """
            name: two-servers
            duration: 60s
            seed: 7
            cluster: {hosts: 2}
            traffic: {rps: 10}
            faults: [{hosts: [host-0], start: 0s, end: 60s, error_rate: 100, %s}]
            """;

    private Path file(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    private Path lab(String fault) throws IOException {
        return file("lab-" + Math.abs(fault.hashCode()) + ".yaml", LAB.formatted(fault));
    }

    private static String nginx(int workers, String servers, String upstreamExtra, String location) {
        return "worker_processes " + workers + ";\nevents {}\nhttp {\n    upstream api {\n" + upstreamExtra + servers
                + "    }\n    server { listen 127.0.0.1:8080; location / { proxy_pass http://api;" + location
                + " } }\n}\n";
    }

    private static final String TWO = "        server 10.0.0.1:8080;\n        server 10.0.0.2:8080;\n";

    private static JsonNode run(Path scenario, String option, Path file, String... more) throws IOException {
        List<String> args = new ArrayList<>(List.of("run", scenario.toString(), option, file.toString()));
        args.addAll(List.of(more));
        args.addAll(List.of("--format", "json"));
        CliRunner.Outcome o = CliRunner.run(args.toArray(String[]::new));
        assertThat(o.exit()).as(o.err()).isZero();
        return JSON.readTree(o.out());
    }

    private static String check(Path file) {
        CliRunner.Outcome o = CliRunner.run("check", file.toString());
        assertThat(o.exit()).as(o.err()).isIn(0, 1);
        return o.out();
    }

    private static long summary(JsonNode run, String key) {
        return run.get("summary").get(key).asLong();
    }

    private static long server(JsonNode run, int i, String key) {
        return run.get("servers").get(i).get(key).asLong();
    }

    @Test
    void nginxIgnores5xxUnlessListed_listingRetriesIt_andALastTryNeverCounts() throws IOException {
        Path always503 = lab("status: 503");
        Path plain = file("nginx.conf", nginx(1, TWO, "", ""));
        JsonNode unlisted = run(always503, "--nginx", plain);
        // never taken out: every one of its 300 503s reaches a client
        assertThat(summary(unlisted, "ejections")).isZero();
        assertThat(summary(unlisted, "client_errors")).isEqualTo(300);
        assertThat(check(plain)).contains("nginx-5xx-not-counted");

        Path listed = file("listed.conf", nginx(1, TWO, "", " proxy_next_upstream error timeout http_503;"));
        JsonNode retried = run(always503, "--nginx", listed);
        // out at once, one probe per fail_timeout + 1 s: 6 attempts, 6 ejections, and no client sees a 503
        assertThat(summary(retried, "client_errors")).isZero();
        assertThat(server(retried, 0, "attempts")).isEqualTo(6);
        assertThat(server(retried, 0, "ejections")).isEqualTo(6);
        assertThat(check(listed)).contains("nginx-retry-hides-failures");

        Path oneTry = file(
                "one-try.conf",
                nginx(1, TWO, "", " proxy_next_upstream error timeout http_503; proxy_next_upstream_tries 1;"));
        JsonNode lastTry = run(always503, "--nginx", oneTry);
        // every try is the last: the listed 503 is passed on and never counted
        assertThat(summary(lastTry, "ejections")).isZero();
        assertThat(summary(lastTry, "client_errors")).isEqualTo(300);
        assertThat(check(oneTry)).contains("nginx-one-try");
    }

    @Test
    void nginxMaxFailsIsNeitherInARowNorASlidingWindow_onAWholeSecondClock() throws IOException {
        String three = "        server 10.0.0.1:8080 max_fails=3 fail_timeout=10s;\n"
                + "        server 10.0.0.2:8080 max_fails=3 fail_timeout=10s;\n";
        Path conf = file("three.conf", nginx(1, three, "", " proxy_next_upstream error timeout http_503;"));
        // a third of its requests failing, successes in between: out at the third failure all the same
        JsonNode third = run(
                lab("status: 503"),
                "--nginx",
                conf,
                "--set",
                "faults[0].error_rate=33",
                "--set",
                "faults[0].pattern=even");
        JsonNode out = third.get("events").get(0);
        assertThat(out.get("action").asText()).isEqualTo("eject");
        assertThat(out.get("fails").asLong()).isEqualTo(3);
        assertThat(out.get("time_ns").asLong()).isEqualTo(1_800_000_000L);
        // whole seconds: out at 1.8 s, the probe at 12 s: between fail_timeout and fail_timeout + 1 s
        JsonNode back = third.get("events").get(1);
        assertThat(back.get("action").asText()).isEqualTo("uneject");
        assertThat(back.get("time_ns").asLong() - out.get("time_ns").asLong())
                .isBetween(10_000_000_000L, 11_000_000_000L);
        assertThat(check(conf)).contains("nginx-max-fails-not-consecutive");

        // two failures in a row every 13 s: 10 failures, never out; the same bursts 5 s apart: out at 5 s
        StringBuilder bursts = new StringBuilder(
                "name: bursts\nduration: 60s\nseed: 7\ncluster: {hosts: 2}\n" + "traffic: {rps: 10}\nfaults:\n");
        for (int s = 0; s < 60; s += 13) {
            bursts.append("  - {hosts: [host-0], start: ")
                    .append(s)
                    .append("s, end: ")
                    .append(s)
                    .append(".4s, error_rate: 100, status: 503}\n");
        }
        Path apart = file("bursts.yaml", bursts.toString());
        assertThat(summary(run(apart, "--nginx", conf), "ejections")).isZero();
        JsonNode closer = run(apart, "--nginx", conf, "--set", "faults[1].start=5s", "--set", "faults[1].end=5.4s");
        assertThat(summary(closer, "ejections")).isEqualTo(1);
        assertThat(closer.get("events").get(0).get("time_ns").asLong()).isEqualTo(5_000_000_000L);
    }

    @Test
    void nginxWithoutZoneEachWorkerCounts_aSingleServerIsNeverOut_allOutAnswers502() throws IOException {
        Path refused = lab("result: connect_failed");
        Path workers = file("workers.conf", nginx(2, TWO, "", ""));
        Path zone = file("zone.conf", nginx(2, TWO, "        zone api 64k;\n", ""));
        JsonNode perWorker = run(refused, "--nginx", workers);
        JsonNode shared = run(refused, "--nginx", zone);
        // twice the ejections and twice the probes (attempts) without zone
        assertThat(server(shared, 0, "ejections")).isEqualTo(6);
        assertThat(server(perWorker, 0, "ejections")).isEqualTo(12);
        assertThat(server(shared, 0, "attempts")).isEqualTo(6);
        assertThat(server(perWorker, 0, "attempts")).isEqualTo(12);
        assertThat(check(workers)).contains("nginx-per-worker-counts");
        assertThat(check(zone)).doesNotContain("nginx-per-worker-counts");

        Path single = file("single.conf", nginx(1, "        server 10.0.0.1:8080;\n", "", ""));
        JsonNode alone = run(refused, "--nginx", single);
        assertThat(summary(alone, "ejections")).isZero();
        assertThat(summary(alone, "client_errors")).isEqualTo(600);
        assertThat(check(single)).contains("nginx-single-server");

        // both refusing for the first second: 502 "no live upstreams" until 11 s, long after they recovered
        Path plain = file("plain.conf", nginx(1, TWO, "", ""));
        JsonNode allOut =
                run(refused, "--nginx", plain, "--set", "faults[0].hosts=[host-0,host-1]", "--set", "faults[0].end=1s");
        assertThat(summary(allOut, "none_left")).isEqualTo(109);
        assertThat(allOut.get("events").get(2).get("action").asText()).isEqualTo("uneject");
        assertThat(allOut.get("events").get(2).get("time_ns").asLong()).isEqualTo(11_000_000_000L);
        assertThat(check(plain)).contains("nginx-all-down-502");
    }

    private static String haproxy(String options) {
        return "defaults\n  mode http\n  timeout connect 5s\n  timeout client 30s\n  timeout server 30s\n\n"
                + "backend api\n  option httpchk GET /health\n  server a 10.0.0.1:80 " + options
                + "\n  server b 10.0.0.2:80 " + options + "\n";
    }

    @Test
    void haproxyPassiveModeOftenDoesNothing_markDownFlaps_onlyChecksBringItBack() throws IOException {
        Path always503 = lab("status: 503");
        Path noCheck = file("nocheck.cfg", haproxy("observe layer7 error-limit 5 on-error mark-down"));
        JsonNode silent = run(always503, "--haproxy", noCheck);
        assertThat(summary(silent, "ejections")).isZero();
        assertThat(summary(silent, "client_errors")).isEqualTo(300);
        assertThat(check(noCheck)).contains("haproxy-observe-without-check");

        // the defaults (error-limit 10, on-error fail-check) with a /health that answers 200: 30 trips, never DOWN
        Path defaults = file("defaults.cfg", haproxy("check observe layer7"));
        JsonNode cleared = run(always503, "--haproxy", defaults);
        assertThat(summary(cleared, "error_limit_trips")).isEqualTo(30);
        assertThat(summary(cleared, "ejections")).isZero();
        assertThat(check(defaults)).contains("haproxy-checks-clear-errors");

        // mark-down acts, and the next two passing checks bring it back: 15 times in a minute
        Path markDown = file("markdown.cfg", haproxy("check observe layer7 error-limit 5 on-error mark-down"));
        JsonNode flaps = run(always503, "--haproxy", markDown);
        assertThat(server(flaps, 0, "ejections")).isEqualTo(15);
        JsonNode events = flaps.get("events");
        for (int i = 0; i + 1 < events.size(); i += 2) {
            assertThat(events.get(i).get("reason").asText()).isEqualTo("observe");
            assertThat(events.get(i + 1).get("reason").asText()).isEqualTo("check_passed");
            assertThat(events.get(i + 1).get("time_ns").asLong()
                            - events.get(i).get("time_ns").asLong())
                    .isLessThanOrEqualTo(3_200_000_000L);
        }
        assertThat(check(markDown)).contains("haproxy-flaps");

        // only consecutive errors count: every other response a 503 never reaches error-limit 2
        Path two = file("two.cfg", haproxy("check observe layer7 error-limit 2 on-error mark-down"));
        JsonNode alternating =
                run(always503, "--haproxy", two, "--set", "faults[0].error_rate=50", "--set", "faults[0].pattern=even");
        assertThat(summary(alternating, "error_limit_trips")).isZero();
        assertThat(summary(alternating, "client_errors")).isEqualTo(150);

        // the health endpoint shares the fault until 30 s: DOWN at the first check, back only by checks at 32 s
        JsonNode shared = run(
                always503,
                "--haproxy",
                markDown,
                "--set",
                "faults[0].end=30s",
                "--set",
                "faults[0].fails_health_check=true");
        assertThat(shared.get("events").get(1).get("reason").asText()).isEqualTo("check_passed");
        assertThat(shared.get("events").get(1).get("time_ns").asLong()).isEqualTo(32_000_000_000L);
    }

    private static String caddy(String subdirectives) {
        return ":8080 {\n\treverse_proxy 10.0.0.1:80 10.0.0.2:80 {\n" + subdirectives + "\t}\n}\n";
    }

    @Test
    void caddyIgnores5xxWithoutUnhealthyStatus_maxFailsDefaultsToOne_slidingWindow_dialErrorsReachClients()
            throws IOException {
        Path always503 = lab("status: 503");
        Path noStatus = file("nostatus.Caddyfile", caddy("\t\tfail_duration 10s\n\t\tmax_fails 3\n"));
        JsonNode ignored = run(always503, "--caddy", noStatus);
        assertThat(summary(ignored, "ejections")).isZero();
        assertThat(summary(ignored, "client_errors")).isEqualTo(301);
        assertThat(check(noStatus)).contains("caddy-5xx-not-counted");

        Path maxOne = file("maxone.Caddyfile", caddy("\t\tfail_duration 10s\n\t\tunhealthy_status 5xx\n"));
        JsonNode one = run(always503, "--caddy", maxOne);
        assertThat(one.get("events").get(0).get("fails").asLong()).isEqualTo(1);
        assertThat(server(one, 0, "attempts")).isEqualTo(6);
        assertThat(check(maxOne)).contains("caddy-max-fails-one");

        // a dead host gets a burst of max_fails requests every fail_duration: 3 every 10 s, 18 in a minute, and
        // without lb_try_duration each refused dial is the client's 502
        Path refused = lab("result: connect_failed");
        Path window =
                file("window.Caddyfile", caddy("\t\tfail_duration 10s\n\t\tmax_fails 3\n\t\tunhealthy_status 5xx\n"));
        JsonNode dead = run(refused, "--caddy", window);
        assertThat(server(dead, 0, "attempts")).isEqualTo(18);
        assertThat(summary(dead, "client_errors")).isEqualTo(18);
        assertThat(check(window)).contains("caddy-dial-errors-reach-clients");
        Path tries = file(
                "tries.Caddyfile",
                caddy("\t\tfail_duration 10s\n\t\tmax_fails 3\n\t\tunhealthy_status 5xx\n\t\tunhealthy_latency 1s\n"
                        + "\t\tlb_try_duration 5s\n"));
        JsonNode retried = run(refused, "--caddy", tries);
        assertThat(summary(retried, "client_errors")).isZero();
        assertThat(summary(retried, "retries")).isEqualTo(18);
        assertThat(check(tries)).contains("caddy-slow-5xx-twice").doesNotContain("caddy-dial-errors-reach-clients");
    }

    @Test
    void caddyCountsASlow5xxTwiceWhenItsHeadersArrive() throws IOException {
        // unhealthy_status 5xx and unhealthy_latency 1s: a 503 whose headers take 1.5 s matches both
        Path slowFile = file(
                "slow.Caddyfile",
                caddy("\t\tfail_duration 10s\n\t\tmax_fails 4\n\t\tunhealthy_status 5xx\n"
                        + "\t\tunhealthy_latency 1s\n"));
        Path slow503 = lab("status: 503, latency: 1500ms");
        JsonNode twice = run(slow503, "--caddy", slowFile);
        JsonNode first = twice.get("events").get(0);
        assertThat(first.get("action").asText()).isEqualTo("eject");
        assertThat(first.get("fails").asLong()).isEqualTo(4);
        // two slow 503s fill max_fails 4, each counted when its headers arrive: the second, sent at 0.2 s, at 1.7 s
        assertThat(first.get("time_ns").asLong()).isEqualTo(1_700_000_000L);
        assertThat(server(twice, 0, "attempts")).isEqualTo(44);
        assertThat(summary(twice, "client_errors")).isEqualTo(44);
        assertThat(server(twice, 0, "ejections")).isEqualTo(5);
        // slower than 1.5 s is what counts: at unhealthy_latency 2s the same 503s count once, the fourth (sent at
        // 0.6 s) fills max_fails at 2.1 s, and 53 reach the server
        Path patient = file(
                "patient.Caddyfile",
                caddy("\t\tfail_duration 10s\n\t\tmax_fails 4\n\t\tunhealthy_status 5xx\n"
                        + "\t\tunhealthy_latency 2s\n"));
        JsonNode counted = run(slow503, "--caddy", patient);
        assertThat(counted.get("events").get(0).get("time_ns").asLong()).isEqualTo(2_100_000_000L);
        assertThat(server(counted, 0, "attempts")).isEqualTo(53);
        // a fast 503 is counted at once: 24 reach the server, fewer than either slow case, whose failures are still
        // in flight while the server keeps getting requests
        JsonNode once = run(lab("status: 503"), "--caddy", slowFile);
        assertThat(server(once, 0, "attempts")).isEqualTo(24);
        assertThat(summary(once, "client_errors")).isEqualTo(24);
        assertThat(check(slowFile)).contains("caddy-slow-5xx-twice");

        CliRunner.Outcome text = CliRunner.run("run", slow503.toString(), "--caddy", slowFile.toString());
        assertThat(text.out()).contains("fault: 10.0.0.1:80 from 0s to 60s, 100.0 % 503 after 1.500s");
        assertThat(twice.get("scenario").get("faults").get(0).get("latency").asText())
                .isEqualTo("1.500s");
        // Envoy's run of the same scenario says what it does with the time: nothing
        assertThat(CliRunner.run("run", slow503.toString()).out())
                .contains("answered after 1.500s (Envoy's outlier detection counts the status, not the time)");
        // without latency the scenario echoes no latency key (every earlier output is unchanged)
        assertThat(once.get("scenario").get("faults").get(0).has("latency")).isFalse();
    }

    @Test
    void aFaultLatencyTheLabCannotTakeIsOneMessageWithItsLine() throws IOException {
        Path f = dir.resolve("bad.yaml");
        Files.writeString(f, "faults:\n  - hosts: 1\n    latency: soon\n");
        CliRunner.run("run", f.toString())
                .assertRejected("bad.yaml:3: faults[0].latency: \"soon\" is not allowed", "such as 10s, 0.25s, 250ms");
        Files.writeString(f, "faults:\n  - hosts: 1\n    latency: -1s\n");
        CliRunner.run("run", f.toString()).assertRejected("bad.yaml:3: faults[0].latency: \"-1s\" is not allowed");
        Files.writeString(f, "faults:\n  - hosts: 1\n    result: timeout\n    latency: 2s\n");
        CliRunner.run("run", f.toString())
                .assertRejected(
                        "bad.yaml:4: faults[0].latency: \"2s\" is not allowed",
                        "no latency with result: timeout (a round trip that did not complete has no response)");
        // Caddy counts a slow response when its headers arrive: the lab holds at most a million of them in flight
        Files.writeString(
                f,
                "duration: 300s\ncluster: {hosts: 2}\ntraffic: {rps: 100000}\n"
                        + "faults:\n  - hosts: 1\n    error_rate: 100\n    status: 503\n    latency: 1h\n");
        CliRunner.run("run", f.toString(), "--caddy", "../docs/examples/servers/Caddyfile")
                .assertRejected(
                        "faults[0].latency: 3600s is not allowed", "at most 1000000 slow responses in flight at once");
        Files.writeString(f, "faults:\n  - hosts: 1\n    kind: dead\n    latency: 1s\n");
        CliRunner.run("run", f.toString())
                .assertRejected("bad.yaml:4: faults[0].latency: \"1s\" is not allowed", "nothing with kind: dead");
    }
}
