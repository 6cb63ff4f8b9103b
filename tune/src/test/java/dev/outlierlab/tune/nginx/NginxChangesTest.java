package dev.outlierlab.tune.nginx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.tune.CurrentSettings;
import dev.outlierlab.tune.DefaultSuite;
import dev.outlierlab.tune.DeployableFile;
import dev.outlierlab.tune.RunFigures;
import dev.outlierlab.tune.Setting;
import dev.outlierlab.tune.SuiteScenario;
import dev.outlierlab.tune.Target;
import dev.outlierlab.tune.TuneRequest;
import org.junit.jupiter.api.Test;

/**
 * An upstream whose servers differ: the change to one value for every server says each server's old value, and the
 * current settings kept as written change nothing in the file.
 */
class NginxChangesTest {
    static final String MIXED = "worker_processes 2;\nevents { worker_connections 64; }\nhttp {\n"
            + "    upstream api {\n        server 10.0.0.1:8080 max_fails=1 fail_timeout=5s;\n"
            + "        server 10.0.0.2:8080 max_fails=0;\n        server 10.0.0.3:8080 max_fails=0;\n    }\n"
            + "    server {\n        listen 127.0.0.1:8080;\n        location / {\n            proxy_pass http://api;\n"
            + "            proxy_next_upstream error timeout http_502 http_503;\n        }\n    }\n}\n";

    static TuneRequest request(CurrentSettings cur) {
        return TuneRequest.builder()
                .name("api")
                .hosts(3)
                .rps(100)
                .clients(1)
                .target(NginxTuneTarget.INSTANCE)
                .envoyVersion(new EnvoyVersion(1, 40))
                .current(cur.config())
                .currentPanicPercent(cur.panicThresholdPercent())
                .suite(new DefaultSuite(3, 100, 1, 0).scenarios())
                .screenSeeds(1)
                .seeds(1)
                .maxEjected(TuneRequest.defaultMaxEjected(3))
                .baseErrorPpm(0)
                .threads(1)
                .currentProfile(cur.profile())
                .build();
    }

    /**
     * The file's {@code proxy_read_timeout} is what a timed-out attempt makes its request wait, for the current
     * settings and every candidate alike: 3 servers at 100 rps, the first timing out every request from 30 s to 240 s,
     * one request in 3 of the 21,000 in the fault tried there first under {@code max_fails=0}.
     */
    @Test
    void theFilesReadTimeoutIsWhatEachSlowRequestWaits() {
        String five = MIXED.replace(
                "proxy_next_upstream error timeout http_502 http_503;",
                "proxy_read_timeout 5s;\n            " + "proxy_next_upstream error timeout http_502 http_503;");
        CurrentSettings cur = NginxTuneTarget.INSTANCE.readOwn(five, "nginx.conf");
        assertThat(((NginxRun) cur.profile()).readTimeoutNanos()).isEqualTo(5 * Durations.SECOND);
        TuneRequest req = request(cur);
        Setting never = NginxTuneTarget.INSTANCE.candidates(req).stream()
                .filter(s -> NginxTuneTarget.INSTANCE.label(s).equals("max_fails=0 fail_timeout=5s +502/503/504"))
                .findFirst()
                .orElseThrow();
        Target.Written w =
                NginxTuneTarget.INSTANCE.write(never, "api", 3, req.current(), 0, cur.profile(), req.envoyVersion());
        NginxRun run = (NginxRun) w.profile();
        assertThat(run.readTimeoutNanos()).isEqualTo(5 * Durations.SECOND);
        SuiteScenario timeout = req.suite().stream()
                .filter(s -> s.name().equals("one-host-timeout"))
                .findFirst()
                .orElseThrow();
        RunFigures f = run.figures(timeout, timeout.with(1, w.config(), 0, req.envoyVersion()));
        assertThat(f.delayedRequests()).isEqualTo(7_000);
        assertThat(f.delayNanos()).isEqualTo(7_000 * 5 * Durations.SECOND);
    }

    @Test
    void aChangeSaysEachServersOldValueAndKeepingThemChangesNothing() {
        CurrentSettings cur = NginxTuneTarget.INSTANCE.readOwn(MIXED, "nginx.conf");
        TuneRequest req = request(cur);
        Setting ten = NginxTuneTarget.INSTANCE.candidates(req).stream()
                .filter(s -> NginxTuneTarget.INSTANCE.label(s).equals("max_fails=10 fail_timeout=30s +5xx"))
                .findFirst()
                .orElseThrow();
        assertThat(NginxTuneTarget.INSTANCE.changes(req.currentSetting(), ten, req))
                .contains("max_fails=10 (was 1/0/0)", "fail_timeout=30s (was 5s/10s/10s)");

        // kept: the evaluation runs the file as read, and the spliced file is the file
        Target.Written kept = new Target.Written("", cur.config(), 0, cur.profile());
        DeployableFile.Spliced spliced =
                NginxTuneTarget.INSTANCE.splice(MIXED, cur.config(), req.currentSetting(), kept, null, null);
        assertThat(spliced.text()).isEqualTo(MIXED);
        assertThat(spliced.patch()).isNull();
    }
}
