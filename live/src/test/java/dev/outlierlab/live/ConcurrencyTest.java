package dev.outlierlab.live;

import static dev.outlierlab.live.LiveFixtures.MS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.engine.gateway.PeerSet;
import dev.outlierlab.engine.stage.StageAction;
import dev.outlierlab.engine.stage.StageMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Eight threads record and filter on the real clock for a bounded time while a ninth switches modes and
 * removes and re-adds endpoints; small rings force the full-ring path. Afterwards every accepted outcome is
 * applied or discarded, no candidate list came back empty, and in prod no ejected endpoint was handed out
 * unless the stage said the guard or panic kept it (checked whenever no decision was published during the
 * filter, by the pool's decision sequence number).
 */
class ConcurrencyTest {
    private static final int THREADS = 8;
    private static final long RUN_NANOS = 700 * MS;
    private static final long MAX_RUN_NANOS = 20_000 * MS;

    @Test
    void everyOutcomeIsAccountedForAndProdNeverHandsOutAnEjectedEndpoint() throws Exception {
        OutlierDetectionConfig config = OutlierDetectionConfig.builder()
                .set(OutlierSetting.CONSECUTIVE_5XX, 3)
                .set(OutlierSetting.INTERVAL, 20 * MS)
                .set(OutlierSetting.BASE_EJECTION_TIME, 30 * MS)
                .set(OutlierSetting.MAX_EJECTION_PERCENT, 100)
                .set(OutlierSetting.SUCCESS_RATE_REQUEST_VOLUME, 10)
                .build();
        run(LivePoolBuilder.envoy("busy", config, 0)
                .seed(3)
                .stripes(4)
                .ringCapacity(64)
                .endpoints("e0", "e1", "e2", "e3", "e4", "e5")
                .build()
                .start());
    }

    /** The same with the gateway profile, whose membership changes keep the other endpoints' state. */
    @Test
    void theGatewayProfileToo() throws Exception {
        GatewayConfig config =
                new GatewayConfig(StageMode.PROD, 200 * MS, 20 * MS, 5, 2.0, PeerSet.ALL, 1.0, 3, 30 * MS, 1);
        run(LivePoolBuilder.gateway("busy", config)
                .stripes(4)
                .ringCapacity(64)
                .endpoints("e0", "e1", "e2", "e3", "e4", "e5")
                .build()
                .start());
    }

    private void run(LivePool pool) throws Exception {
        LiveFixtures.Recorder seen = new LiveFixtures.Recorder();
        pool.addListener(seen);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong accepted = new AtomicLong();
        AtomicLong emptyLists = new AtomicLong();
        AtomicLong violations = new AtomicLong();
        AtomicLong prodChecks = new AtomicLong();
        AtomicLong filters = new AtomicLong();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        List<Throwable> errors = new CopyOnWriteArrayList<>();
        for (int w = 0; w < THREADS; w++) {
            int worker = w;
            Thread t = new Thread(() -> {
                Random random = new Random(worker);
                long mine = 0;
                try {
                    go.await();
                    while (!stop.get()) {
                        long before = pool.decisionVersion();
                        StageMode mode = pool.mode();
                        Selection s = pool.filter();
                        long after = pool.decisionVersion();
                        filters.incrementAndGet();
                        if (s.candidates().isEmpty()) {
                            emptyLists.incrementAndGet();
                            continue;
                        }
                        boolean guarded = s.stage() != null && s.stage().action() == StageAction.KEPT_ALL;
                        if (mode == StageMode.PROD
                                && pool.mode() == StageMode.PROD
                                && before == after
                                && (before & 1) == 0
                                && s.stage() != null
                                && !guarded) {
                            prodChecks.incrementAndGet();
                            for (Endpoint e : s.candidates()) {
                                if (e.isEjected() && pool.decisionVersion() == before) {
                                    violations.incrementAndGet();
                                }
                            }
                        }
                        Endpoint target = s.candidates().get(0);
                        // e0 and e1 fail often; the rest rarely.
                        boolean bad =
                                target.name().equals("e0") || target.name().equals("e1");
                        int roll = random.nextInt(100);
                        boolean ok;
                        if (roll < (bad ? 60 : 2)) {
                            ok = pool.record(target, roll % 3 == 0 ? 500 : 503);
                        } else if (roll < (bad ? 70 : 3)) {
                            ok = pool.record(target, LocalFailure.TIMEOUT);
                        } else {
                            ok = pool.record(target, 200);
                        }
                        if (ok) {
                            mine++;
                        }
                    }
                } catch (Throwable e) {
                    errors.add(e);
                } finally {
                    accepted.addAndGet(mine);
                }
            });
            workers.add(t);
            t.start();
        }
        Random control = new Random(99);
        StageMode[] modes = {StageMode.PROD, StageMode.SHADOW, StageMode.PROD, StageMode.OFF, StageMode.PROD};
        go.countDown();
        // Run for RUN_NANOS, and on (bounded) until every path the assertions below count on was taken, so that a
        // loaded machine slows the test down instead of failing it.
        long start = System.nanoTime();
        long end = start + RUN_NANOS;
        long latest = start + MAX_RUN_NANOS;
        int step = 0;
        while (System.nanoTime() < end || (!pathsTaken(pool, seen) && System.nanoTime() < latest)) {
            Thread.sleep(15);
            StageMode mode = modes[step % modes.length];
            pool.setMode(mode);
            if (mode == StageMode.OFF) {
                // Stay off until the workers have seen it (bounded), however loaded the machine is.
                long ignored = pool.counters().ignoredOff();
                long offUntil = System.nanoTime() + 2_000 * MS;
                while (pool.counters().ignoredOff() == ignored && System.nanoTime() < offUntil) {
                    Thread.sleep(1);
                }
            }
            if (step % 4 == 1) {
                List<Endpoint> members = pool.endpoints();
                Endpoint victim = members.get(control.nextInt(members.size()));
                pool.remove(victim);
                pool.add(victim.name());
            }
            step++;
        }
        pool.setMode(StageMode.PROD);
        Thread.sleep(20);
        stop.set(true);
        for (Thread t : workers) {
            t.join(5_000);
        }
        pool.close();
        PoolSnapshot snapshot = pool.snapshot();
        PoolCounters c = snapshot.counters();

        assertThat(errors).isEmpty();
        assertThat(accepted.get()).isGreaterThan(1_000);
        assertThat(c.accepted()).isEqualTo(accepted.get());
        assertThat(c.applied() + c.discarded()).isEqualTo(accepted.get());
        assertThat(c.pending()).isZero();
        assertThat(c.filtered()).isEqualTo(filters.get());
        assertThat(emptyLists.get()).isZero();
        assertThat(prodChecks.get()).as("prod selections checked").isGreaterThan(10);
        assertThat(violations.get()).isZero();
        assertThat(seen.decisions).extracting(LiveDecision::kind).contains(DecisionKind.EJECT, DecisionKind.RETURN);
        assertThat(c.stageEject()).isPositive();
        assertThat(c.ignoredOff()).isPositive();
        // Decisions arrive one at a time, in time order.
        List<LiveDecision> decisions = new ArrayList<>(seen.decisions);
        for (int i = 1; i < decisions.size(); i++) {
            assertThat(decisions.get(i).timeNanos())
                    .isGreaterThanOrEqualTo(decisions.get(i - 1).timeNanos());
        }
        long active =
                snapshot.endpoints().stream().filter(EndpointState::ejected).count();
        assertThat(snapshot.detectorStats().get("ejections_active")).isEqualTo(active);
    }

    private static boolean pathsTaken(LivePool pool, LiveFixtures.Recorder seen) {
        PoolCounters c = pool.counters();
        List<DecisionKind> kinds = new ArrayList<>();
        synchronized (seen.decisions) {
            for (LiveDecision d : seen.decisions) {
                kinds.add(d.kind());
            }
        }
        return c.stageEject() > 0
                && c.ignoredOff() > 0
                && kinds.contains(DecisionKind.EJECT)
                && kinds.contains(DecisionKind.RETURN);
    }
}
