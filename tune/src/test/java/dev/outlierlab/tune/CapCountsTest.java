package dev.outlierlab.tune;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The caps a search tries: one per count of hosts out at once up to four (every cluster of up to 14 hosts keeps its
 * whole search), then about half again each step up to the most allowed, so that a 200-host cluster tries 9 caps
 * rather than 33.
 */
class CapCountsTest {
    @Test
    void everyCountUpToFourThenHalfAgain() {
        assertThat(SearchSpace.capCounts(1)).containsExactly(1);
        assertThat(SearchSpace.capCounts(4)).containsExactly(1, 2, 3, 4);
        assertThat(SearchSpace.capCounts(5)).containsExactly(1, 2, 3, 4, 5);
        assertThat(SearchSpace.capCounts(16)).containsExactly(1, 2, 3, 4, 6, 9, 14, 16);
        assertThat(SearchSpace.capCounts(66)).containsExactly(1, 2, 3, 4, 6, 9, 14, 21, 32, 48, 66);
    }

    @Test
    void aFleetSearchesOneCapPerStep() {
        TuneRequest req = request(200, 20_000);
        // 200 hosts, at most 66 out: 11 counts of hosts out, whose smallest whole percentages are 9 (1 % admits
        // two hosts, 2 % four); one cap per count would have been 33 percentages
        assertThat(SearchSpace.caps(req).stream().map(c -> c[0]))
                .containsExactly(1L, 2L, 3L, 5L, 7L, 11L, 16L, 24L, 33L);
        assertThat(SearchSpace.caps(request(12, 2_000))).hasSize(4);
    }

    private static TuneRequest request(int hosts, long rps) {
        return EnvoyRequests.fromFlags(hosts, rps, 1, 1);
    }
}
