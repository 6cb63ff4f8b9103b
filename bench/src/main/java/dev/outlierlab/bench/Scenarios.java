package dev.outlierlab.bench;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.scenario.TrafficSpec;
import java.util.List;

/** The scenarios the benchmarks run. bench/run-benchmarks.sh writes the same large scenario as YAML. */
public final class Scenarios {
    /** Hosts of the large scenario. */
    public static final int LARGE_HOSTS = 1_000;
    /** Requests per second of the large scenario. */
    public static final long LARGE_RPS = 100_000;
    /** Hosts that fail in the large scenario. */
    public static final int LARGE_BAD_HOSTS = 5;

    private Scenarios() {}

    /** The lab's default scenario: six hosts, 600 rps, 300 s, 180,000 requests. */
    public static Scenario defaults() {
        return Scenario.defaults();
    }

    /**
     * The large scenario: 1,000 hosts, 100,000 rps for {@code minutes} (60 gives the one hour, 360
     * million requests); the first five hosts fail 30 % of their requests with 503 from 1/12 to 5/6 of the
     * run (5 to 50 minutes for one hour); {@code max_ejection_percent} 20, other settings Envoy's defaults.
     */
    public static Scenario large(int minutes) {
        return large(minutes, LARGE_RPS);
    }

    /** The large scenario at another request rate (to show that memory follows time, not requests). */
    public static Scenario large(int minutes, long rps) {
        long duration = minutes * 60L * Durations.SECOND;
        List<String> bad = ClusterSpec.ofCount(LARGE_BAD_HOSTS, 50).hosts();
        FaultSpec fault = FaultSpec.builder()
                .hosts(bad)
                .window(duration / 12, duration / 6 * 5)
                .errorRatePpm(300_000)
                .build();
        OutlierDetectionConfig config = OutlierDetectionConfig.builder()
                .set(OutlierSetting.MAX_EJECTION_PERCENT, 20)
                .build();
        return Scenario.builder()
                .name("large-" + minutes + "m-" + rps + "rps")
                .durationNanos(duration)
                .seed(1)
                .cluster(ClusterSpec.ofCount(LARGE_HOSTS, 50))
                .traffic(new TrafficSpec(rps))
                .faults(List.of(fault))
                .outlierDetection(config)
                .build();
    }
}
