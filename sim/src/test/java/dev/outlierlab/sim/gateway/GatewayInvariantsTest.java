package dev.outlierlab.sim.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.gateway.GatewayAction;
import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.engine.gateway.GatewayDetector;
import dev.outlierlab.engine.gateway.GatewayEvent;
import dev.outlierlab.engine.stage.CandidateStage;
import dev.outlierlab.engine.stage.StageAction;
import dev.outlierlab.engine.stage.StageMode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Invariants over 300 seeded random scenarios, in prod and shadow: no request's list is empty; in
 * prod no attempt goes to an ejected endpoint except through the guard; every window holds exactly the
 * attempts of its last {@code window / bucket} buckets since the endpoint last returned (none older); every
 * ejection lasts at least {@code ejection_time} and ends at its process's first look at or after that time.
 */
class GatewayInvariantsTest {
    private static final class Checker implements GatewayObserver {
        final GatewayConfig config;
        final int endpoints;
        final List<List<Long>> looks = new ArrayList<>();
        final List<List<ArrayDeque<Long>>> recorded = new ArrayList<>();
        final List<GatewayEvent> events = new ArrayList<>();
        StageAction lastAction = StageAction.NONE;
        long guardAttempts;

        Checker(GatewayScenario s) {
            config = s.gateway();
            endpoints = s.endpoints().size();
            for (int p = 0; p < config.processes(); p++) {
                looks.add(new ArrayList<>());
                List<ArrayDeque<Long>> row = new ArrayList<>();
                for (int e = 0; e < endpoints; e++) {
                    row.add(new ArrayDeque<>());
                }
                recorded.add(row);
            }
        }

        @Override
        public void onStage(
                long request,
                int process,
                long nowNanos,
                CandidateStage stage,
                int[] candidates,
                int start,
                int count) {
            if (count <= 0) {
                throw new AssertionError("request " + request + ": empty candidate list");
            }
            looks.get(process).add(nowNanos);
            lastAction = stage.action();
        }

        @Override
        public void onAttempt(
                long request,
                int process,
                long nowNanos,
                int attempt,
                int endpoint,
                int outcome,
                GatewayDetector detector) {
            if (config.mode() == StageMode.PROD && detector.isEjected(endpoint)) {
                if (lastAction != StageAction.KEPT_ALL) {
                    throw new AssertionError("request " + request + " went to ejected endpoint " + endpoint
                            + " after stage " + lastAction);
                }
                guardAttempts++;
            }
            long oldestBucket = nowNanos / config.bucketNanos() - config.buckets() + 1;
            for (int e = 0; e < endpoints; e++) {
                ArrayDeque<Long> times = recorded.get(process).get(e);
                while (!times.isEmpty() && times.peekFirst() / config.bucketNanos() < oldestBucket) {
                    times.pollFirst();
                }
                detector.window(e).advance(nowNanos);
                if (detector.window(e).attempts() != times.size()) {
                    throw new AssertionError("request " + request + ": window of " + e + " holds "
                            + detector.window(e).attempts() + " attempts, the last buckets had " + times.size());
                }
            }
            recorded.get(process).get(endpoint).addLast(nowNanos);
        }

        @Override
        public void onEvent(GatewayEvent event) {
            events.add(event);
            if (event.action() == GatewayAction.RETURN) {
                recorded.get(event.process()).get(event.endpoint()).clear();
            }
        }

        /** The process's first look at or after {@code nanos}, or -1. */
        long firstLook(int process, long nanos) {
            List<Long> times = looks.get(process);
            int i = Collections.binarySearch(times, nanos);
            if (i < 0) {
                i = -i - 1;
            } else {
                while (i > 0 && times.get(i - 1) == nanos) {
                    i--;
                }
            }
            return i < times.size() ? times.get(i) : -1;
        }
    }

    @Test
    void invariantsHoldOverSeededRandomScenarios() {
        long returns = 0;
        long guarded = 0;
        for (long seed = 1; seed <= 300; seed++) {
            StageMode mode = seed % 3 == 0 ? StageMode.SHADOW : StageMode.PROD;
            GatewayScenario scenario = RandomGatewayScenarios.of(seed, mode);
            Checker checker = new Checker(scenario);
            GatewaySimulation.run(scenario, checker);
            guarded += checker.guardAttempts;
            List<GatewayEvent> open = new ArrayList<>();
            for (GatewayEvent e : checker.events) {
                if (e.action() != GatewayAction.RETURN) {
                    assertThat(e.returnAtNanos() - e.timeNanos())
                            .isEqualTo(scenario.gateway().ejectionTimeNanos());
                    open.add(e);
                    continue;
                }
                returns++;
                assertThat(e.outForNanos())
                        .as("seed %d", seed)
                        .isGreaterThanOrEqualTo(scenario.gateway().ejectionTimeNanos());
                assertThat(e.timeNanos())
                        .as("seed %d: return at the first look", seed)
                        .isEqualTo(checker.firstLook(e.process(), e.returnAtNanos()));
                open.removeIf(o -> o.process() == e.process() && o.endpoint() == e.endpoint());
            }
            for (GatewayEvent still : open) {
                assertThat(checker.firstLook(still.process(), still.returnAtNanos()))
                        .as("seed %d: still ejected at the end, so no look came after its time", seed)
                        .isEqualTo(-1);
            }
        }
        assertThat(returns).isGreaterThan(300);
        assertThat(guarded).isGreaterThan(0);
    }
}
