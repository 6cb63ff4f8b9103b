package dev.outlierlab.engine.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.ThreadMXBean;
import dev.outlierlab.engine.stage.CandidateStage;
import dev.outlierlab.engine.stage.RotationGuard;
import java.lang.management.ManagementFactory;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Routing, the stage and recording allocate nothing per attempt: measured in bytes with the JVM's per-thread
 * allocation counter over 200,000 requests to six endpoints, one of them failing a third of the time.
 */
class GatewayAllocationTest {
    @Test
    void noAllocationPerAttempt() {
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        GatewayDetector d = new GatewayDetector(
                GatewayConfig.defaults(), List.of("a", "b", "c", "d", "e", "f"), 0, GatewayListener.NONE);
        CandidateStage stage = new CandidateStage(GatewayConfig.defaults().mode(), d, d, RotationGuard.NEVER_EMPTY);
        CandidateRouter router = new RoundRobinRouter(6);
        int[] list = new int[6];
        run(d, stage, router, list, 0, 50_000);
        long before = threads.getCurrentThreadAllocatedBytes();
        run(d, stage, router, list, 50_000, 250_000);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertThat(allocated).as("bytes allocated over 200,000 requests").isLessThan(4096);
    }

    private static void run(
            GatewayDetector d, CandidateStage stage, CandidateRouter router, int[] list, int from, int to) {
        for (int i = from; i < to; i++) {
            long t = i * 1_000_000L;
            int start = router.next();
            int n = stage.apply(router.list(), start, 6, router.listsFixed(), t);
            int e = stage.list()[stage.listStart()];
            boolean fail = e == 0 && i % 3 == 0 && n > 0;
            d.record(e, fail ? 503 : 200, t);
        }
    }
}
