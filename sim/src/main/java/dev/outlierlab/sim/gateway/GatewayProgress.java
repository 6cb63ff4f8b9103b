package dev.outlierlab.sim.gateway;

import dev.outlierlab.engine.stage.CandidateStage;
import dev.outlierlab.sim.RunCancelledException;
import dev.outlierlab.sim.RunWatcher;

/**
 * A {@link RunWatcher} as a {@link GatewayObserver}: told of a gateway run's progress every
 * {@link RunWatcher#EVERY_REQUESTS} requests, as an Envoy run tells its watcher, so that a front end can show
 * progress or stop the run (by throwing {@link RunCancelledException}). It never changes
 * what the run computes.
 */
public final class GatewayProgress implements GatewayObserver {
    private final RunWatcher watcher;
    private final long requests;

    private GatewayProgress(RunWatcher watcher, long requests) {
        this.watcher = watcher;
        this.requests = requests;
    }

    /** An observer that tells {@code watcher} how many of {@code scenario}'s requests are done; none for NONE. */
    public static GatewayObserver of(RunWatcher watcher, GatewayScenario scenario) {
        return watcher == RunWatcher.NONE
                ? GatewayObserver.NONE
                : new GatewayProgress(watcher, scenario.requestCount());
    }

    @Override
    public void onStage(
            long request, int process, long nowNanos, CandidateStage stage, int[] candidates, int start, int count) {
        if ((request & (RunWatcher.EVERY_REQUESTS - 1)) == 0) {
            watcher.progress(request, requests);
        }
    }
}
