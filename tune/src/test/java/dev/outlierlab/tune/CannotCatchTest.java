package dev.outlierlab.tune;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * "What no setting can catch here" says plainly what the user's constraints rule out, and why: tuned on a host failing
 * a third of its requests, a dead host and a 20 % shared outage, with 50 callers at 6 hosts (0.4 requests a second
 * from each caller to each host), consecutive 5xx at 5 is the only detector fast enough and it ejects in the outage.
 */
class CannotCatchTest {
    @Test
    void aSlowDeadHostAndAMissedPartialFailureAreStatedWithTheTradeOff() {
        List<SuiteScenario> suite = new DefaultSuite(6, 120, 50, 0)
                .scenarios().stream()
                        .filter(s -> Set.of("one-host-partial", "one-host-dead-503", "shared-outage")
                                .contains(s.name()))
                        .toList();
        TuneRequest req = EnvoyRequests.defaults(6, 120, suite)
                .clients(50)
                .maxEjected(1)
                .threads(2)
                .build();
        TuneResult r = Tuner.tune(req, u -> {});
        String dead = r.cannotCatch().stream()
                .filter(l -> l.startsWith("one-host-dead-503 (a dead host)"))
                .findFirst()
                .orElseThrow();
        assertThat(dead)
                .contains("no admissible setting on the front takes it out within 10 s")
                .contains("each caller sends a host 0.4 requests a second")
                .contains("failures in a row from one caller are needed");
        assertThat(r.recommended().score("one-host-dead-503").detectSeconds()).isGreaterThan(10);
        String partial = r.cannotCatch().stream()
                .filter(l -> l.startsWith("one-host-partial ("))
                .findFirst()
                .orElseThrow();
        assertThat(partial).contains("each of the 50 callers sees only 3 requests a host per interval");
        if (dead.contains("but breaks a constraint")) {
            // the faster setting named is on the front, inadmissible, and does take the dead host out within 10 s
            assertThat(dead).contains("takes it out in ").contains("(shared-outage: false ejections");
            assertThat(r.front())
                    .anyMatch(
                            e -> !e.admissible() && e.score("one-host-dead-503").detectSeconds() <= 10);
        }
    }
}
