package dev.outlierlab.engine.nginx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.Outcome;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** nginx's {@code backup} servers: a second set of peers, tried only when no primary may be selected. */
class NginxBackupTest {
    static final long S = Durations.SECOND;
    static final long MS = Durations.MILLISECOND;
    private final List<NginxEvent> events = new ArrayList<>();

    private NginxDetector detector(NextUpstream next, NginxServer... servers) {
        return new NginxDetector(new NginxUpstreamConfig("api", List.of(servers), next, 1, false), 0, events::add);
    }

    private static NginxServer backup(String name) {
        return NginxServer.of(name).withBackup(true);
    }

    @Test
    void onePrimaryWithABackupIsCountedAndTakenOutWhileTheBackupAnswers() {
        NginxDetector d = detector(NextUpstream.defaults(), NginxServer.of("a"), backup("b"));
        assertThat(d.peers().single()).isFalse();
        assertThat(d.initialTries()).isEqualTo(2);
        long[] attempts = new long[2];
        int errors = 0;
        for (int i = 0; i < 200; i++) { // 20 s at 10 requests a second; a refuses every connection
            int status = d.request(i * 100 * MS, (peer, attempt) -> {
                attempts[peer]++;
                return peer == 0 ? Outcome.CONNECT_FAILED : 200;
            });
            errors += status >= 500 ? 1 : 0;
        }
        assertThat(errors).isZero(); // the refusal is retried on the backup
        assertThat(attempts).containsExactly(2, 200); // a: the first request and the probe at 11 s
        assertThat(events)
                .extracting(NginxEvent::action, NginxEvent::reason, NginxEvent::timeNanos)
                .containsExactly(
                        tuple(NginxEvent.Action.EJECT, NginxEvent.Reason.MAX_FAILS, 0L),
                        tuple(NginxEvent.Action.UNEJECT, NginxEvent.Reason.FAIL_TIMEOUT, 11 * S),
                        tuple(NginxEvent.Action.EJECT, NginxEvent.Reason.PROBE_FAILED, 11 * S));
    }

    @Test
    void withoutTheBackupTheSameServerIsNeverTakenOutAndEveryRefusalReachesTheClient() {
        NginxDetector d = detector(NextUpstream.defaults(), NginxServer.of("a"));
        int errors = 0;
        for (int i = 0; i < 200; i++) {
            errors += d.request(i * 100 * MS, (peer, attempt) -> Outcome.CONNECT_FAILED) == 502 ? 1 : 0;
        }
        assertThat(errors).isEqualTo(200);
        assertThat(events).isEmpty();
    }

    @Test
    void aBackupGetsNothingWhileAPrimaryMayBeSelected() {
        NginxDetector d = detector(NextUpstream.defaults(), NginxServer.of("a"), backup("c"), NginxServer.of("b"));
        long[] attempts = new long[3];
        for (int i = 0; i < 100; i++) {
            d.request(i * 10 * MS, (peer, attempt) -> {
                attempts[peer]++;
                return 200;
            });
        }
        assertThat(attempts).containsExactly(50, 0, 50);
    }

    @Test
    void theTriesCountPrimaryAndBackupServersAndAllFailedGoesToTheBackup() {
        NginxDetector d = detector(NextUpstream.defaults(), NginxServer.of("a"), NginxServer.of("b"), backup("c"));
        assertThat(d.initialTries()).isEqualTo(3);
        List<Integer> order = new ArrayList<>();
        int status = d.request(0, (peer, attempt) -> {
            order.add(peer);
            return peer == 2 ? 200 : Outcome.CONNECT_FAILED;
        });
        assertThat(status).isEqualTo(200);
        assertThat(order).containsExactly(0, 1, 2);
        assertThat(d.isEjected(0)).isTrue();
        assertThat(d.isEjected(1)).isTrue();
        // both primaries out: the next request goes straight to the backup, one attempt
        assertThat(d.request(100 * MS, (peer, attempt) -> peer == 2 ? 200 : Outcome.CONNECT_FAILED))
                .isEqualTo(200);
        assertThat(d.lastAttempts()).isEqualTo(1);
        assertThat(d.noLiveUpstreams()).isZero();
    }

    @Test
    void proxyNextUpstreamTriesCapsTheBackupOut() {
        NginxDetector d = detector(
                new NextUpstream(NextUpstream.ERROR | NextUpstream.TIMEOUT, 2),
                NginxServer.of("a"),
                NginxServer.of("b"),
                backup("c"));
        assertThat(d.initialTries()).isEqualTo(2);
        assertThat(d.request(0, (peer, attempt) -> peer == 2 ? 200 : Outcome.CONNECT_FAILED))
                .isEqualTo(502);
        assertThat(d.lastAttempts()).isEqualTo(2);
    }

    @Test
    void noLiveUpstreamsOnlyWhenTheBackupsAreOutToo() {
        NginxDetector d = detector(NextUpstream.defaults(), NginxServer.of("a"), NginxServer.of("b"), backup("c"));
        assertThat(d.request(0, (peer, attempt) -> Outcome.CONNECT_FAILED)).isEqualTo(502);
        assertThat(d.lastAttempts()).isEqualTo(3);
        assertThat(d.noLiveUpstreams()).isZero();
        assertThat(d.request(100 * MS, (peer, attempt) -> 200)).isEqualTo(502);
        assertThat(d.lastAttempts()).isZero();
        assertThat(d.noLiveUpstreams()).isEqualTo(1);
        // each returns at the start of second 0 + 10 + 1
        assertThat(d.request(11 * S, (peer, attempt) -> 200)).isEqualTo(200);
    }

    @Test
    void backupsBalanceByTheirOwnWeightsAndDownOnesAreNotTries() {
        NginxDetector d = detector(
                NextUpstream.defaults(),
                new NginxServer("a", 1, 1, 10, true),
                new NginxServer("b", 2, 1, 10, false, true),
                new NginxServer("c", 1, 1, 10, false, true),
                new NginxServer("d", 1, 1, 10, true, true));
        assertThat(d.initialTries()).isEqualTo(2);
        long[] attempts = new long[4];
        for (int i = 0; i < 30; i++) {
            d.request(i * 10 * MS, (peer, attempt) -> {
                attempts[peer]++;
                return 200;
            });
        }
        assertThat(attempts).containsExactly(0, 20, 10, 0);
    }

    @Test
    void aBackupIsCountedWithItsOwnMaxFails() {
        NginxDetector d = detector(
                NextUpstream.defaults(),
                new NginxServer("a", 1, 1, 10, true),
                new NginxServer("b", 1, 3, 5, false, true));
        for (int i = 0; i < 3; i++) {
            assertThat(d.request(i * 100 * MS, (peer, attempt) -> Outcome.CONNECT_FAILED))
                    .isEqualTo(502);
        }
        assertThat(events)
                .extracting(
                        NginxEvent::endpointName, NginxEvent::fails, NginxEvent::maxFails, NginxEvent::returnAtNanos)
                .containsExactly(tuple("b", 3L, 3, 6 * S)); // out at 0.2 s until second 0 + 5 + 1
    }

    @Test
    void anUpstreamOfBackupsAloneIsRefused() {
        assertThatThrownBy(() -> detector(NextUpstream.defaults(), backup("a"), backup("b")))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageStartingWith("nginx.servers: every server backup is not allowed; expected at least one"
                        + " server without backup")
                .hasMessageEndingWith("(\"no servers in upstream\")");
    }
}
