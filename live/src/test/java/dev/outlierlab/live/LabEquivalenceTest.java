package dev.outlierlab.live;

import static dev.outlierlab.live.LiveFixtures.MS;
import static dev.outlierlab.live.LiveFixtures.S;
import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.engine.envoy.RequestResult;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.RunResult;
import dev.outlierlab.sim.TraceReplay;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.scenario.TrafficSpec;
import dev.outlierlab.sim.trace.TraceRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The live pool and the lab decide alike: one trace of outcomes, at the same times, through the lab's
 * {@link TraceReplay} and through a pool on a {@link ManualClock}, gives the same events, field for field,
 * whether the pool is drained after every outcome or in irregular batches, and whether the pool reads its clock
 * at each record or the caller passes the attempt's time ({@code record(endpoint, code, atNanos)}).
 */
class LabEquivalenceTest {
    private static final long DURATION = 200 * S;
    private static final int HOSTS = 6;

    /**
     * Success rate, consecutive 5xx and gateway failures all live, with enforcement draws (50 %) and jitter,
     * so the seed matters too; cap 34 % so that some detections overflow.
     */
    private static OutlierDetectionConfig config() {
        return OutlierDetectionConfig.builder()
                .set(OutlierSetting.INTERVAL, 5 * S)
                .set(OutlierSetting.BASE_EJECTION_TIME, 10 * S)
                .set(OutlierSetting.MAX_EJECTION_PERCENT, 34)
                .set(OutlierSetting.ENFORCING_CONSECUTIVE_5XX, 50)
                .set(OutlierSetting.ENFORCING_SUCCESS_RATE, 50)
                .set(OutlierSetting.ENFORCING_CONSECUTIVE_GATEWAY_FAILURE, 100)
                .set(OutlierSetting.SUCCESS_RATE_REQUEST_VOLUME, 20)
                .set(OutlierSetting.MAX_EJECTION_TIME_JITTER, 2 * S)
                .build();
    }

    /** Seeded outcomes: host-0 fails 30 % (503), host-1 times out in bursts, host-2 answers 502 in runs. */
    private static List<TraceRecord> trace(long seed) {
        Random random = new Random(seed);
        List<TraceRecord> records = new ArrayList<>();
        long t = 0;
        while (true) {
            t += 1 + random.nextInt(40 * (int) MS);
            if (t >= DURATION) {
                return records;
            }
            int host = random.nextInt(HOSTS);
            long line = records.size() + 1;
            double draw = random.nextDouble();
            boolean burst = (t / (7 * S)) % 3 == 0;
            if (host == 0 && draw < 0.30) {
                records.add(new TraceRecord(t, host, 503, null, line));
            } else if (host == 1 && burst && draw < 0.8) {
                records.add(new TraceRecord(t, host, -1, RequestResult.LOCAL_ORIGIN_TIMEOUT, line));
            } else if (host == 2 && burst && draw < 0.6) {
                records.add(new TraceRecord(t, host, 502, null, line));
            } else {
                records.add(new TraceRecord(t, host, draw < 0.01 ? 500 : 200, null, line));
            }
        }
    }

    private static List<OutlierEvent> lab(List<TraceRecord> records, long seed) {
        Scenario scenario = Scenario.builder()
                .name("equivalence")
                .durationNanos(DURATION)
                .seed(seed)
                .cluster(ClusterSpec.ofCount(HOSTS, 50))
                .traffic(new TrafficSpec(1))
                .outlierDetection(config())
                .build();
        RunResult result = TraceReplay.run(scenario, records.iterator(), RunOptions.DEFAULT);
        return result.events();
    }

    private static List<OutlierEvent> live(List<TraceRecord> records, long seed, int batchSeed) {
        return live(records, seed, batchSeed, false);
    }

    private static List<OutlierEvent> live(List<TraceRecord> records, long seed, int batchSeed, boolean atDrain) {
        return live(records, seed, batchSeed, atDrain, false);
    }

    /**
     * {@code callerTimes}: each outcome is recorded with its time as the caller's own clock reading
     * ({@code record(endpoint, code, atNanos)}), and the pool's clock moves only when the pool filters.
     */
    private static List<OutlierEvent> live(
            List<TraceRecord> records, long seed, int batchSeed, boolean atDrain, boolean callerTimes) {
        ManualClock clock = new ManualClock();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < HOSTS; i++) {
            names.add("host-" + i);
        }
        LivePoolBuilder builder = LivePoolBuilder.envoy("equivalence", config(), 50)
                .clock(clock)
                .seed(seed)
                .endpoints(names);
        LivePool pool = (atDrain ? builder.stampOutcomesAtDrain() : builder).build();
        List<OutlierEvent> events = new ArrayList<>();
        pool.addListener(new LiveListener() {
            @Override
            public void onDecision(LiveDecision decision) {
                events.add((OutlierEvent) decision.detail());
            }
        });
        List<Endpoint> endpoints = pool.endpoints();
        Random batches = new Random(batchSeed);
        for (TraceRecord r : records) {
            Endpoint e = endpoints.get(r.host());
            if (callerTimes) {
                if (r.result() == RequestResult.LOCAL_ORIGIN_TIMEOUT) {
                    pool.record(e, LocalFailure.TIMEOUT, r.timeNanos());
                } else {
                    pool.record(e, r.code(), r.timeNanos());
                }
            } else {
                clock.set(r.timeNanos());
                if (r.result() == RequestResult.LOCAL_ORIGIN_TIMEOUT) {
                    pool.record(e, LocalFailure.TIMEOUT);
                } else {
                    pool.record(e, r.code());
                }
            }
            if (batchSeed == 0 || batches.nextInt(50) == 0) {
                clock.set(r.timeNanos());
                pool.filter();
            }
        }
        clock.set(DURATION);
        pool.runDue();
        return events;
    }

    @Test
    void sameOutcomesAtSameTimesGiveTheSameDecisionsAsTheLab() {
        for (long seed = 1; seed <= 3; seed++) {
            List<TraceRecord> records = trace(seed);
            List<OutlierEvent> lab = lab(records, seed);
            assertThat(lab)
                    .extracting(OutlierEvent::action)
                    .contains(EventAction.EJECT, EventAction.UNEJECT, EventAction.UNENFORCED, EventAction.OVERFLOW);
            assertThat(live(records, seed, 0))
                    .as("drained after each outcome, seed %d", seed)
                    .isEqualTo(lab);
            assertThat(live(records, seed, 7))
                    .as("drained in batches, seed %d", seed)
                    .isEqualTo(lab);
            assertThat(live(records, seed, 7, false, true))
                    .as("times from the caller, in batches, seed %d", seed)
                    .isEqualTo(lab);
            assertThat(live(records, seed, 0, true))
                    .as("stamped at drain, drained after each, seed %d", seed)
                    .isEqualTo(lab);
            assertThat(live(records, seed, 7, true))
                    .as("stamped at drain in batches, seed %d", seed)
                    .isNotEqualTo(lab);
        }
    }
}
