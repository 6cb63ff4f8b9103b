package dev.outlierlab.live;

import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Settings and a recording listener shared by the live tests. */
final class LiveFixtures {
    static final long MS = 1_000_000L;
    static final long S = 1_000 * MS;

    private LiveFixtures() {}

    /** Consecutive 5xx 3, interval 10 s, base ejection 30 s, cap 100 %. */
    static OutlierDetectionConfig quickConfig() {
        return OutlierDetectionConfig.builder()
                .set(OutlierSetting.CONSECUTIVE_5XX, 3)
                .set(OutlierSetting.MAX_EJECTION_PERCENT, 100)
                .build();
    }

    /** Collects decisions and stages, thread-safely. */
    static final class Recorder implements LiveListener {
        final List<LiveDecision> decisions = Collections.synchronizedList(new ArrayList<>());
        final List<StageRecord> stages = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void onDecision(LiveDecision decision) {
            decisions.add(decision);
        }

        @Override
        public void onStage(StageRecord stage) {
            stages.add(stage);
        }
    }
}
