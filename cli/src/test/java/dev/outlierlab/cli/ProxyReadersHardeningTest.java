package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The readers of nginx.conf, haproxy.cfg, the Caddyfile and Caddy's JSON put through the hardening cases
 * (files in {@code hardening/proxies}, the large ones generated here): each is refused with exit 2 and one message
 * naming the file, the line, the key, a short prefix of the value and what is allowed, the same through
 * {@code run --nginx/--haproxy/--caddy}, {@code check FILE} and {@code tune --from FILE}; nothing is written to an
 * {@code --output} file when the input is refused.
 */
class ProxyReadersHardeningTest {
    private static final Path CASES = Path.of("src/test/resources/hardening/proxies");

    @TempDir
    Path dir;

    /** The option of {@code run} that reads this file. */
    private static String runOption(Path file) {
        String name = file.getFileName().toString();
        return name.startsWith("nginx") ? "--nginx" : name.startsWith("haproxy") ? "--haproxy" : "--caddy";
    }

    /** Refused by run, check and tune --from alike, each message with these fragments. */
    private static void refusedEverywhere(Path file, String... fragments) {
        CliRunner.run("run", runOption(file), file.toString()).assertRejected(fragments);
        CliRunner.run("check", file.toString()).assertRejected(fragments);
        CliRunner.run("tune", "--from", file.toString(), "--rps", "600", "--seeds", "1")
                .assertRejected(fragments);
    }

    @Test
    void nginxTimesFollowNginxsUnitOrderSoALongRunOfUnitsCannotWrapAround() {
        // before: 589 units adding up to 2^64 + 17 s were read as fail_timeout=17s; 1h1h1h as 3h
        refusedEverywhere(
                CASES.resolve("nginx-fail-timeout-wrap.conf"),
                "nginx-fail-timeout-wrap.conf:5: fail_timeout=999999999y999999999y",
                "units y M w d h m s in that order, each once), at most a year");
        refusedEverywhere(
                CASES.resolve("nginx-fail-timeout-repeated.conf"),
                "nginx-fail-timeout-repeated.conf:4: fail_timeout=1h1h1h is not allowed");
    }

    @Test
    void anNginxIncludeThatIsNoMaskADeviceOrItselfNamesItsLine() {
        // before: "internal error: java.util.regex.PatternSyntaxException", exit 70
        refusedEverywhere(
                CASES.resolve("nginx-include-mask.conf"),
                "nginx-include-mask.conf:1: include \"conf.d/[x.conf\" is not allowed; expected a file or a mask");
        // before: "no such file /dev/zero"
        refusedEverywhere(
                CASES.resolve("nginx-include-device.conf"),
                "nginx-include-device.conf:1: include \"/dev/zero\": /dev/zero is not a regular file");
        // before: the message named neither the include nor its line
        CliRunner.run("run", "--nginx", CASES.resolve("nginx-include-self.conf").toString())
                .assertRejected("nginx-include-self.conf:1: more than 100 files through include (does a file include"
                        + " itself?)");
    }

    @Test
    void checkOfADirectoryPutsEachRefusedFileAtTheLineItsMessageNames() throws IOException {
        Path sub = Files.createDirectories(dir.resolve("configs"));
        for (String name :
                new String[] {"nginx-fail-timeout-repeated.conf", "haproxy-inter-25d.cfg", "Caddyfile-unclosed-quote"
                }) {
            Files.copy(CASES.resolve(name), sub.resolve(name));
        }
        CliRunner.Outcome o = CliRunner.run("check", sub.toString());
        assertThat(o.exit()).isEqualTo(2);
        // before: "nginx-fail-timeout-repeated.conf:1: nginx-fail-timeout-repeated.conf:4: ...", at line 1
        // no file of the directory could be read: each file's message on standard error, no report on standard output
        assertThat(o.out()).isEmpty();
        assertThat(o.err())
                .contains(sub.resolve("nginx-fail-timeout-repeated.conf")
                        + ":4: not read: fail_timeout=1h1h1h is not allowed")
                .contains(sub.resolve("haproxy-inter-25d.cfg") + ":9: not read: inter \"25d\" is not allowed")
                .contains(sub.resolve("Caddyfile-unclosed-quote") + ":3: not read: the quote \" opened on line 3")
                .doesNotContain(":1: nginx-fail-timeout-repeated.conf", "Exception");
    }

    @Test
    void anNginxMaskMatchingThousandsOfFilesIsRefusedAtItsInclude() throws IOException {
        Path many = Files.createDirectories(dir.resolve("conf.d"));
        for (int i = 0; i < 3000; i++) {
            Files.writeString(many.resolve(String.format("%04d.conf", i)), "# empty\n");
        }
        Path conf = Files.writeString(
                dir.resolve("nginx.conf"),
                "include conf.d/*.conf;\nhttp { upstream app { server a:1; server b:1; } }\n");
        // before: "2975.conf: more than 100 files through include", a file picked by the directory's order
        CliRunner.run("run", "--nginx", conf.toString())
                .assertRejected("nginx.conf:1: include \"conf.d/*.conf\" matches more than 100 files; the lab reads"
                        + " at most 100");
    }

    @Test
    void longNamesAndWordsAreEchoedAsAShortPrefix() throws IOException {
        Path word = Files.writeString(
                dir.resolve("nginx-word.conf"), "http { upstream app { " + "A".repeat(200_000) + " } }\n");
        CliRunner.Outcome o = CliRunner.run("run", "--nginx", word.toString());
        o.assertRejected("nginx-word.conf:1: unexpected \"}\" after \"AAAA", "... (200000 characters)");
        assertThat(o.err()).hasSizeLessThan(400); // before: the 200,000 characters, whole

        StringBuilder names = new StringBuilder("http {\n");
        for (int i = 0; i < 50; i++) {
            names.append("upstream ").append("U".repeat(5000)).append(i).append(" { server a:1; }\n");
        }
        Path upstreams = Files.writeString(dir.resolve("nginx-names.conf"), names.append("}\n"));
        o = CliRunner.run("run", "--nginx", upstreams.toString(), "--upstream", "nope");
        o.assertRejected("nginx-names.conf: no upstream \"nope\"; the file has UUUU", "and 40 more");
        assertThat(o.err()).hasSizeLessThan(2_000); // before: 250,000 characters

        StringBuilder backends = new StringBuilder();
        for (int i = 0; i < 50; i++) {
            backends.append("backend ").append("B".repeat(5000)).append(i).append("\n  server s1 a:1\n");
        }
        Path cfg = Files.writeString(dir.resolve("haproxy-names.cfg"), backends);
        o = CliRunner.run("run", "--haproxy", cfg.toString(), "--backend", "nope");
        o.assertRejected("haproxy-names.cfg: no backend \"nope\"; the file has BBBB", "and 40 more");
        assertThat(o.err()).hasSizeLessThan(2_000);

        Path envoyLike = Files.writeString(dir.resolve("other.conf"), "x".repeat(50_000) + "\n");
        o = CliRunner.run("tune", "--from", envoyLike.toString(), "--rps", "600");
        assertThat(o.exit()).isEqualTo(2);
        assertThat(o.err()).contains("... (50000 characters)").hasSizeLessThan(1_000); // before: 50 KB
    }

    @Test
    void haproxyTimersStopAtHaproxysLargest() throws IOException {
        // before: inter 25d was read (HAProxy: "timer overflow ... maximum value is 2147483647 ms")
        refusedEverywhere(
                CASES.resolve("haproxy-inter-25d.cfg"),
                "haproxy-inter-25d.cfg:9: inter \"25d\" is not allowed; expected a time of at most 2147483647 ms");
        Path edge = Files.writeString(
                dir.resolve("haproxy.cfg"), "backend app\n  server s1 a:1 check inter 2147483647\n  server s2 b:1\n");
        assertThat(CliRunner.run("run", "--haproxy", edge.toString()).exit()).isZero();
        Files.writeString(edge, "backend app\n  server s1 a:1 check inter 2147483648\n  server s2 b:1\n");
        CliRunner.run("run", "--haproxy", edge.toString()).assertRejected("haproxy.cfg:2: inter \"2147483648\"");
    }

    @Test
    void aHaproxyScenarioBlockWithNoServersNamesItsKeyAndLine() {
        // before: "faults: host 127.0.0.1:8081 is not allowed; the configuration has 0 servers ()"
        CliRunner.run("run", CASES.resolve("haproxy-servers-empty.yaml").toString())
                .assertRejected(
                        "haproxy-servers-empty.yaml:9: haproxy.servers: [] is not allowed; expected at least one "
                                + "server");
    }

    @Test
    void anNginxUpstreamOfBackupServersOnlyIsRefusedAsNginxRefusesIt() {
        // before: 'nginx.upstream: "backend" is not allowed', naming neither the servers nor the backup parameter;
        // nginx -t: no servers in upstream "backend" in nginx-backup-only.conf:3
        refusedEverywhere(
                CASES.resolve("nginx-backup-only.conf"),
                "nginx-backup-only.conf:3: upstream \"backend\": every server line is backup; expected at least one"
                        + " server without backup, as nginx refuses an upstream of backup servers only (\"no servers in"
                        + " upstream\")");
        CliRunner.run("run", CASES.resolve("nginx-backup-only.yaml").toString())
                .assertRejected("nginx-backup-only.yaml:6: nginx.servers: every server is backup; expected at least one"
                        + " server without backup");
        CliRunner.run(
                        "run",
                        "--set",
                        "profile=nginx",
                        "--set",
                        "faults=[]",
                        "--set",
                        "nginx.servers=[{address: a, backup: true}]")
                .assertRejected("--set nginx.servers: every server is backup; expected at least one server without"
                        + " backup");
    }

    @Test
    void aCaddyfileWhoseQuoteOrBlockIsNeverClosedIsRefusedAsCaddyRefusesIt() {
        // before: both read as if closed (caddy adapt: "Unexpected EOF")
        refusedEverywhere(
                CASES.resolve("Caddyfile-unclosed-quote"),
                "Caddyfile-unclosed-quote:3: the quote \" opened on line 3 is never closed (unexpected end of file)");
        refusedEverywhere(
                CASES.resolve("Caddyfile-unclosed-block"),
                "Caddyfile-unclosed-block:2: the block opened with { on line 2 is never closed");
    }

    @Test
    void aCaddyDurationOfManyPartsCannotWrapAround() {
        // before: two 2^63-1 ns parts and 10s were read as fail_duration 9.999999998s
        refusedEverywhere(
                CASES.resolve("Caddyfile-duration-wrap"),
                "Caddyfile-duration-wrap:3: fail_duration \"9223372036854775807ns92233720368547758",
                "at most 316224000s");
    }

    @Test
    void aCaddyfileCountPastTheLabsRangeNamesItsLine() {
        // before: "Caddyfile-max-fails-2pow31: caddy.max_fails: 2147483647 ..." without the line, under the block's key
        refusedEverywhere(
                CASES.resolve("Caddyfile-max-fails-2pow31"),
                "Caddyfile-max-fails-2pow31:4: max_fails \"2147483647\" is not allowed; expected a whole number from 0"
                        + " to 1000000");
    }

    @Test
    void nginxAndHaproxyCountsPastTheLabsRangeNameTheirLine() throws IOException {
        // before: "nginx.conf: nginx.max_fails: 2147483647 ..." and "haproxy.cfg: haproxy.error_limit: ...",
        // refused later under the scenario block's key, without the line
        Path nginx = Files.writeString(
                dir.resolve("nginx.conf"),
                "http {\n upstream app {\n  server a:1 max_fails=2147483647;\n  server b:1;\n }\n}\n");
        CliRunner.run("run", "--nginx", nginx.toString())
                .assertRejected("nginx.conf:3: max_fails=2147483647 is not allowed; expected a whole number from 0 to"
                        + " 1000000");
        Path haproxy = Files.writeString(
                dir.resolve("haproxy.cfg"),
                "backend app\n  server s1 a:1 check error-limit 2147483647\n  server s2 b:1\n");
        CliRunner.run("run", "--haproxy", haproxy.toString())
                .assertRejected("haproxy.cfg:2: error-limit \"2147483647\" is not allowed; expected a whole number from"
                        + " 1 to 1000000");
    }

    @Test
    void caddysJsonFieldsAreTheTypesCaddyGivesThem() {
        // before: 4294967297 was read as 1, "three" as 0, 2.5 as 2: each silently
        refusedEverywhere(
                CASES.resolve("caddy-max-fails-2pow32.json"),
                "caddy-max-fails-2pow32.json:16: reverse_proxy health_checks.passive.max_fails: 4294967297 is not "
                        + "allowed; expected a whole number from 0 to 1000000");
        refusedEverywhere(
                CASES.resolve("caddy-max-fails-text.json"),
                "caddy-max-fails-text.json:16: reverse_proxy health_checks.passive.max_fails: \"three\"");
        refusedEverywhere(
                CASES.resolve("caddy-max-fails-fraction.json"),
                "caddy-max-fails-fraction.json:16: reverse_proxy health_checks.passive.max_fails: 2.5");
        // before: "caddy.fail_duration: 9223372036.854775807s", the value as clamped, with no line or path
        refusedEverywhere(
                CASES.resolve("caddy-fail-duration-float.json"),
                "caddy-fail-duration-float.json:15: reverse_proxy health_checks.passive.fail_duration: 1.0E30 is not"
                        + " allowed; expected a duration such as \"30s\"");
        // before: "caddy.unhealthy_status: 0 is not allowed" (the text read as 0)
        refusedEverywhere(
                CASES.resolve("caddy-status-text.json"),
                "caddy-status-text.json:16: reverse_proxy health_checks.passive.unhealthy_status[0]: \"5xx\" is not"
                        + " allowed; expected a status from 100 to 599, or 1 to 5 for a class (5 is 5xx)");
        // before: "cluster.hosts: \"\" is not allowed" with no file
        refusedEverywhere(
                CASES.resolve("caddy-dial-missing.json"),
                "caddy-dial-missing.json:12: reverse_proxy upstreams[1].dial: missing; expected an address");
    }

    @Test
    void caddysJsonNestedAHundredThousandDeepIsOneMessage() throws IOException {
        Path deep = Files.writeString(
                dir.resolve("caddy.json"), "{\"apps\": " + "{\"a\": ".repeat(100_000) + "1" + "}".repeat(100_001));
        // before: "internal error: java.lang.NullPointerException", exit 70
        CliRunner.run("run", "--caddy", deep.toString())
                .assertRejected("caddy.json: not valid JSON (nested deeper than the 1000 levels the lab reads)");
        CliRunner.run("tune", "--from", deep.toString(), "--rps", "600").assertRejected("caddy.json: ");
    }

    @Test
    void deepBlocksHugeFilesLongLinesAndGarbageAreEachOneMessage() throws IOException {
        byte[] garbage = new byte[4096];
        new Random(5).nextBytes(garbage);
        String deep = "a {".repeat(100_000) + "}".repeat(100_000) + "\n";
        String deepLines = "a {\n".repeat(100_000) + "}\n".repeat(100_000);
        String line = "x".repeat(1024 * 1024);
        record Case(String option, String name, String text, String fragment) {}
        List<Case> cases = List.of(
                new Case("--nginx", "nginx.conf", "http {\n" + deep + "}\n", "nginx.conf:2: blocks are nested more"),
                new Case("--nginx", "nginx.conf", line, "line 1 is longer than 262,144 characters"),
                new Case("--haproxy", "haproxy.cfg", "backend app\n  server " + line, "line 2 is longer than"),
                new Case("--caddy", "Caddyfile", ":80 {\n reverse_proxy " + line, "line 2 is longer than"),
                new Case("--caddy", "Caddyfile", ":80 {\n reverse_proxy a:1 {\n" + deepLines + "}\n}\n", null),
                new Case("--nginx", "nginx.conf", "", "nginx.conf: no upstream block in http { }"),
                new Case("--haproxy", "haproxy.cfg", "", "haproxy.cfg: no backend or listen section"),
                new Case("--caddy", "Caddyfile", "", "Caddyfile: no reverse_proxy directive"),
                new Case("--haproxy", "haproxy.cfg", "backend app\n  balance roundrobin\n", "backend has no server"),
                new Case("--caddy", "Caddyfile", ":80 {\n reverse_proxy {\n }\n}\n", "reverse_proxy has no upstream"),
                new Case("--nginx", "nginx.conf", "http { upstream app { } }", "has no server line"));
        for (Case c : cases) {
            Path file = Files.writeString(dir.resolve(c.name()), c.text());
            CliRunner.Outcome o = CliRunner.run("run", c.option(), file.toString());
            if (c.fragment() == null) {
                assertThat(o.exit()).as(o.err()).isZero(); // a deep block inside reverse_proxy is read past
            } else {
                o.assertRejected(c.fragment());
            }
        }
        Path bin = Files.write(dir.resolve("garbage"), garbage);
        for (String option : new String[] {"--nginx", "--haproxy", "--caddy"}) {
            CliRunner.run("run", option, bin.toString()).assertRejected("garbage:1: not UTF-8 text");
            CliRunner.run("run", option, "/dev/null").assertRejected("null: no ");
            CliRunner.run("run", option, dir.toString()).assertRejected(dir + ": is a directory, expected a");
        }
    }

    @Test
    void crlfLineEndsReadAsLf() throws IOException {
        String nginx =
                "http {\n  upstream app {\n    server a:1 max_fails=3 fail_timeout=20s;\n    server b:1;\n  }\n}\n";
        String haproxy = "backend app\n  server s1 a:1 check inter 3s rise 4\n  server s2 b:1 check\n";
        String caddy = ":80 {\n  reverse_proxy a:1 b:1 {\n    fail_duration 20s\n    max_fails 3\n  }\n}\n";
        for (String[] c : new String[][] {
            {"--nginx", "nginx.conf", nginx, "\"max_fails\" : 3"},
            {"--haproxy", "haproxy.cfg", haproxy, "\"rise\" : 4"},
            {"--caddy", "Caddyfile", caddy, "\"max_fails\" : 3"}
        }) {
            Path lf = Files.writeString(dir.resolve(c[1]), c[2]);
            String expected = CliRunner.run("export", c[0], lf.toString(), "--to", "scenario")
                    .out();
            Files.writeString(lf, c[2].replace("\n", "\r\n"));
            assertThat(CliRunner.run("export", c[0], lf.toString(), "--to", "scenario")
                            .out())
                    .isEqualTo(expected)
                    .contains(c[3]);
        }
    }

    @Test
    void aNamedUpstreamOrBackendThatIsNotThereNamesTheOnesThatAre() {
        CliRunner.run(
                        "run",
                        "--nginx",
                        CASES.resolve("nginx-fail-timeout-repeated.conf").toString(),
                        "--upstream",
                        "api")
                .assertRejected("nginx-fail-timeout-repeated.conf: no upstream \"api\"; the file has app");
        CliRunner.run(
                        "run",
                        "--haproxy",
                        CASES.resolve("haproxy-servers-empty.yaml").toString())
                .assertRejected("haproxy-servers-empty.yaml: no backend or listen section");
        CliRunner.run("run", "--haproxy", CASES.resolve("haproxy-inter-25d.cfg").toString(), "--backend", "api")
                .assertRejected("haproxy-inter-25d.cfg: no backend \"api\"; the file has app");
        CliRunner.run("run", "--nginx", "no-such-nginx.conf")
                .assertRejected("no-such-nginx.conf: cannot be read (no such file)");
        CliRunner.run("run", "--caddy", "no-such-Caddyfile")
                .assertRejected("no-such-Caddyfile: cannot be read (no such file)");
    }

    @Test
    void meshPoliciesForTuneAndReplayAreRefusedWithTheirKeyAndRange() {
        CliRunner.run(
                        "tune",
                        "--from",
                        CASES.resolve("istio-consecutive-2pow32.yaml").toString(),
                        "--rps",
                        "600")
                .assertRejected(
                        "istio-consecutive-2pow32.yaml:9: spec.trafficPolicy.outlierDetection.consecutive5xxErrors:"
                                + " 4294967297 is not allowed; expected a whole number from 0 to 4294967295");
        CliRunner.run(
                        "replay",
                        "--istio",
                        CASES.resolve("istio-consecutive-2pow32.yaml").toString(),
                        "/dev/null")
                .assertRejected("istio-consecutive-2pow32.yaml:9: spec.trafficPolicy.outlierDetection");
        CliRunner.run(
                        "tune",
                        "--from",
                        CASES.resolve("kuma-consecutive-2pow66.yaml").toString(),
                        "--rps",
                        "600")
                .assertRejected("kuma-consecutive-2pow66.yaml:13: spec.to[0].default.outlierDetection.detectors"
                        + ".totalFailures.consecutive: \"99999999999999999999\" is not allowed");
        CliRunner.run(
                        "tune",
                        "--from",
                        CASES.resolve("envoy-gateway-interval-1y.yaml").toString(),
                        "--rps",
                        "600")
                .assertRejected("envoy-gateway-interval-1y.yaml:10: spec.healthCheck.passive.interval: \"1y\" is not"
                        + " allowed; expected a duration such as 10s");
    }

    @Test
    void aRefusedInputLeavesTheOutputFileAsItWas() throws IOException {
        Path out = Files.writeString(dir.resolve("report.txt"), "the previous report\n");
        for (String name :
                new String[] {"nginx-fail-timeout-wrap.conf", "haproxy-inter-25d.cfg", "caddy-dial-missing.json"}) {
            Path file = CASES.resolve(name);
            CliRunner.run("run", runOption(file), file.toString(), "--output", out.toString())
                    .assertRejected(name);
            CliRunner.run("export", runOption(file), file.toString(), "--to", "scenario", "--output", out.toString())
                    .assertRejected(name);
            assertThat(Files.readString(out, StandardCharsets.UTF_8)).isEqualTo("the previous report\n");
        }
        // /sys takes no new file, root or not: before, the message named a temporary file and not the reason
        Path sys = Path.of("/sys/outlier-lab-report.txt");
        if (Files.isDirectory(sys.getParent()) && !Files.exists(sys)) {
            CliRunner.Outcome o =
                    CliRunner.run("run", "--caddy", "../docs/examples/servers/Caddyfile", "--output", sys.toString());
            o.assertRejected("--output /sys/outlier-lab-report.txt: cannot be written (");
            assertThat(o.err()).doesNotContain(".tmp");
        }
        try (var listing = Files.list(dir)) {
            assertThat(listing.map(p -> p.getFileName().toString())).containsExactly("report.txt");
        }
    }
}
