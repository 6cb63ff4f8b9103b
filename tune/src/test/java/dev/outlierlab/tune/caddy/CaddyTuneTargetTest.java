package dev.outlierlab.tune.caddy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.config.caddy.CaddyConfigReader;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.caddy.CaddyPassiveConfig;
import dev.outlierlab.engine.caddy.CaddySelection;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.tune.CurrentSettings;
import dev.outlierlab.tune.DefaultSuite;
import dev.outlierlab.tune.RunFigures;
import dev.outlierlab.tune.Setting;
import dev.outlierlab.tune.SuiteScenario;
import dev.outlierlab.tune.Target;
import java.util.List;
import org.junit.jupiter.api.Test;

class CaddyTuneTargetTest {
    static final long S = Durations.SECOND;

    @Test
    void theSearchsCaddyfileKeepsTheTransportsResponseHeaderTimeout() {
        // tune runs each setting on the Caddyfile it writes, read back: without the transport block a hanging
        // upstream's tries would be held instead of timed out and retried
        CaddyPassiveConfig c = CaddyPassiveConfig.of(List.of("10.0.0.1:80", "10.0.0.2:80"), 10 * S, 3)
                .withRetries(5 * S, 0, 0)
                .withResponseHeaderTimeout(2 * S);
        String file = CaddyTuneTarget.caddyfile(c);
        assertThat(file).contains("\t\ttransport http {\n\t\t\tresponse_header_timeout 2s\n\t\t}\n");
        assertThat(CaddyConfigReader.readText(file, "tune-Caddyfile").config()).isEqualTo(c);
        assertThat(CaddyTuneTarget.caddyfile(c.withResponseHeaderTimeout(0))).doesNotContain("transport");
    }

    private static final String FIRST_EVERY_SECOND = """
            127.0.0.1:9000 {
            \treverse_proxy 127.0.0.1:9001 127.0.0.1:9002 127.0.0.1:9003 {
            \t\tlb_policy first
            \t\tlb_try_duration 5s
            \t\tlb_try_interval 1s
            \t\tfail_duration 10s
            \t}
            }
            """;

    /** The candidate max_fails 2 fail_duration 30s +5xx written over the user's file and run on one-host-refused. */
    private static RunFigures candidateOnDeadHost(String caddyfile, Target.Written[] written) {
        CurrentSettings cur = CaddyTuneTarget.INSTANCE.readOwn(caddyfile, "Caddyfile");
        CaddyPassiveConfig now = ((CaddyRun) cur.profile()).config();
        Setting candidate = CaddyTuneTarget.setting(now.withPassive(30 * S, 2, List.of(5), 0));
        EnvoyVersion v = new EnvoyVersion(1, 40);
        Target.Written w = CaddyTuneTarget.INSTANCE.write(candidate, "search", 3, cur.config(), 0, cur.profile(), v);
        written[0] = w;
        SuiteScenario sc = SuiteScenario.named(new DefaultSuite(3, 100, 1, 0).scenarios(), "one-host-refused", "x");
        return w.profile().figures(sc, sc.with(1, w.config(), 0, v));
    }

    @Test
    void eachCandidateKeepsTheUsersLbPolicyAndTryIntervalAndIsJudgedUnderThem() {
        // tune --from judges each candidate on the Caddyfile it writes, read back: the user's lb_policy first and
        // lb_try_interval 1s must be in it, or the candidate is judged under random selection and 250 ms waits
        Target.Written[] mine = new Target.Written[1];
        RunFigures first = candidateOnDeadHost(FIRST_EVERY_SECOND, mine);
        assertThat(mine[0].text()).contains("\t\tlb_policy first\n").contains("\t\tlb_try_interval 1s\n");
        CaddyPassiveConfig read = ((CaddyRun) mine[0].profile()).config();
        assertThat(read.policy()).isEqualTo(CaddySelection.Policy.FIRST);
        assertThat(read.tryIntervalNanos()).isEqualTo(S);
        assertThat(CaddyConfigReader.readText(mine[0].text(), "again").config()).isEqualTo(read);

        Target.Written[] plain = new Target.Written[1];
        RunFigures random = candidateOnDeadHost(
                FIRST_EVERY_SECOND.replace("\t\tlb_policy first\n", "").replace("\t\tlb_try_interval 1s\n", ""), plain);
        assertThat(plain[0].text()).doesNotContain("lb_policy").contains("\t\tlb_try_interval 0.250s\n");
        // one-host-refused, 3 hosts at 100 rps: under lb_policy first the refusing first host gets every request
        // while it is healthy, so each fail_duration's first request takes it out at once (7 times in 300 s); under
        // random selection it is taken out 12 times, 60 ms after the fault on average
        assertThat(first.ejections()).isEqualTo(7);
        assertThat(first.detectNanos()).isZero();
        assertThat(random.ejections()).isEqualTo(12);
        assertThat(random.detectNanos()).isEqualTo(60 * Durations.MILLISECOND);
    }
}
