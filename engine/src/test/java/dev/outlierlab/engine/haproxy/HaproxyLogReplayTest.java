package dev.outlierlab.engine.haproxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.Durations;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The replay of a log recorded from the real HAProxy 2.6 on a busy machine: a health check of s0 was answered by the
 * backend 0.44 ms before HAProxy read the error response that made its third trip, and HAProxy never read the check
 * (no log line for it; the server went DOWN and, with the check's task waiting for its timeout, stayed DOWN to the
 * end). The lab must void that check and go DOWN at the same request.
 */
class HaproxyLogReplayTest {
    private static final long MS = Durations.MILLISECOND;

    @Test
    void aCheckInFlightWhenTheThirdTripCameIsVoidedAndTheServerGoesDownWithHaproxy() throws IOException {
        HaproxyServer s0 = HaproxyServer.checked("s0", "127.0.0.1:20834")
                .observing(Observe.LAYER7, 2, OnError.FAIL_CHECK)
                .withTimers(500 * MS, 0, 0, 2, 3);
        HaproxyServer s1 = HaproxyServer.checked("s1", "127.0.0.1:20838").withTimers(500 * MS, 0, 0, 2, 3);
        HaproxyLogReplay replay = new HaproxyLogReplay(List.of(s0, s1));
        replay.readLog(lines("voided-check.log"));
        List<List<long[]>> answered = List.of(new ArrayList<>(), new ArrayList<>());
        for (String line : lines("voided-check.checks")) {
            if (!line.startsWith("#")) {
                String[] w = line.split(" ");
                answered.get(Integer.parseInt(w[0]))
                        .add(new long[] {Long.parseLong(w[1]), Long.parseLong(w[2]), Long.parseLong(w[3])});
            }
        }
        replay.addChecks(answered);
        replay.replay();

        assertThat(replay.disagreements).isEmpty();
        assertThat(replay.requests).isEqualTo(150);
        assertThat(replay.trips()).isEqualTo(7);
        assertThat(replay.voided()).isEqualTo(1);
        // HAProxy: "Server be/s0 is DOWN" at 21:18:16.848319, after the request logged at 16.848355 tripped
        assertThat(replay.events).hasSize(1);
        assertThat(replay.events.get(0).down()).isTrue();
        assertThat(replay.events.get(0).timeNanos()).isEqualTo(1_796_505_496_848_355_000L);
        // and, as HAProxy's last status line for s0 says ("0/2 DOWN"), at health 0: the voided pass did not count
        assertThat(replay.health(0)).isZero();
    }

    private static List<String> lines(String name) throws IOException {
        try (InputStream in = HaproxyLogReplayTest.class.getResourceAsStream("/haproxy/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }
}
