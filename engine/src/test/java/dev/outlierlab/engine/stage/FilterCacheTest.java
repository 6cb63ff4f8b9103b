package dev.outlierlab.engine.stage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.envoy.PanicRule;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A stage that remembers its decisions per offset of a fixed list decides exactly as one that looks at every
 * candidate each time, whatever the ejections do between requests, in each mode and with either guard.
 */
class FilterCacheTest {
    /** What one apply decided, as a string: action, remaining list, endpoints concerned. */
    private static String decision(CandidateStage stage, int kept) {
        List<Integer> remaining = new ArrayList<>();
        for (int k = 0; k < kept; k++) {
            remaining.add(stage.list()[stage.listStart() + k]);
        }
        List<Integer> concerned = new ArrayList<>();
        for (int k = 0; k < stage.concernedCount(); k++) {
            concerned.add(stage.concerned(k));
        }
        return stage.action() + " " + remaining + " " + concerned;
    }

    @Test
    void cachedDecisionsEqualFreshOnesOverSeededRandomRequests() {
        int compared = 0;
        int ejectStages = 0;
        for (long seed = 1; seed <= 300; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            int n = 1 + random.nextInt(8);
            StageMode mode = random.nextBoolean() ? StageMode.PROD : StageMode.SHADOW;
            RotationGuard guard = random.nextBoolean()
                    ? RotationGuard.NEVER_EMPTY
                    : PanicRule.of(50).guard();
            EjectionFlags flags = new EjectionFlags(n);
            CandidateStage cached = new CandidateStage(mode, flags, null, guard);
            CandidateStage fresh = new CandidateStage(mode, flags, null, guard);
            int[] twice = new int[2 * n];
            for (int i = 0; i < 2 * n; i++) {
                twice[i] = i % n;
            }
            for (int request = 0; request < 400; request++) {
                if (random.nextInt(10) == 0) {
                    flags.flip(random.nextInt(n));
                }
                int offset = random.nextInt(n);
                int keptCached = cached.apply(twice, offset, n, true, request);
                String viaCache = decision(cached, keptCached);
                int keptFresh = fresh.apply(twice, offset, n, false, request);
                assertThat(viaCache).as("seed %d request %d", seed, request).isEqualTo(decision(fresh, keptFresh));
                assertThat(twice[offset]).isEqualTo(offset % n); // the router's list is never written
                compared++;
                if (cached.action() == StageAction.EJECT) {
                    ejectStages++;
                }
            }
        }
        assertThat(compared).isEqualTo(120_000);
        assertThat(ejectStages)
                .as("requests whose list lost an ejected endpoint")
                .isGreaterThan(10_000);
    }
}
