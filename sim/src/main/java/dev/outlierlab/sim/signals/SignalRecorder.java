package dev.outlierlab.sim.signals;

import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.engine.envoy.event.UnejectReason;
import dev.outlierlab.sim.traffic.LoadBalancer;
import java.util.List;

/**
 * Builds a {@link SignalSeries} as a run goes: told of every change of membership (an ejection, a return, a
 * round of health checks) and of every request with its outcome. A gauge's sample for step {@code b} is its
 * value after every change before {@code (b + 1) * step}.
 */
public final class SignalRecorder {
    /** RequestFate of one request. */
    public enum RequestFate {
        OK,
        FAILED_CAPACITY,
        FAILED_FAULT,
        FAILED_NO_HOST
    }

    private final LoadBalancer balancer;
    private final long stepNanos;
    private final StepIndex stepIndex;
    private final int hosts;
    private final int[] ejectionsActive;
    private final int[] membershipHealthy;
    private final int[] healthCheckHealthy;
    private final long[] ejectionsEnforced;
    private final long[] requests;
    private final long[] failed;
    private final int[] panic;
    private final long[] outcomes = new long[RequestFate.values().length];
    private int filled;
    private int currentEjected;
    private int currentHealthy;
    private int currentHcHealthy;
    private int currentPanic;
    private long returnsByTime;
    private long returnsByHealthCheck;
    private final Flapping.Tracker flapping = new Flapping.Tracker();

    public SignalRecorder(LoadBalancer balancer, int hosts, long durationNanos, long stepNanos) {
        this.balancer = balancer;
        this.hosts = hosts;
        this.stepNanos = stepNanos;
        this.stepIndex = new StepIndex(stepNanos);
        int steps = (int) ((durationNanos + stepNanos - 1) / stepNanos);
        ejectionsActive = new int[steps];
        membershipHealthy = new int[steps];
        healthCheckHealthy = new int[steps];
        ejectionsEnforced = new long[steps];
        requests = new long[steps];
        failed = new long[steps];
        panic = new int[steps];
        membershipChanged(0);
    }

    /** Membership may have changed at {@code nanos}: reads the load balancer's state now. */
    public void membershipChanged(long nanos) {
        fillBefore(nanos);
        currentEjected = balancer.ejectedCount();
        currentHealthy = balancer.healthyCount();
        currentHcHealthy = hosts - balancer.healthCheckFailedCount();
        currentPanic = balancer.inPanic() ? 1 : 0;
    }

    /** A host was ejected at {@code nanos}. */
    public void ejected(long nanos) {
        int b = step(nanos);
        if (b < ejectionsEnforced.length) {
            ejectionsEnforced[b]++;
        }
        membershipChanged(nanos);
    }

    /** Every event of the detector, as it happens: for the returns by mechanism and for flapping. */
    public void event(OutlierEvent e) {
        if (e.action() == EventAction.UNEJECT) {
            if (e.uneject() == UnejectReason.ACTIVE_HEALTH_CHECK) {
                returnsByHealthCheck++;
            } else {
                returnsByTime++;
            }
        }
        flapping.onEvent(e);
    }

    /** A request sent at {@code nanos} ended with {@code outcome}. */
    public void request(long nanos, RequestFate outcome) {
        int b = step(nanos);
        requests[b]++;
        if (outcome != RequestFate.OK) {
            failed[b]++;
        }
        outcomes[outcome.ordinal()]++;
    }

    /**
     * {@code ok + noHost} requests sent in the step of {@code nanos}: {@code ok} that succeeded and {@code noHost}
     * that found no eligible host; the same as that many {@link #request} calls in that step.
     */
    public void requests(long nanos, long ok, long noHost) {
        int b = step(nanos);
        requests[b] += ok + noHost;
        failed[b] += noHost;
        outcomes[RequestFate.OK.ordinal()] += ok;
        outcomes[RequestFate.FAILED_NO_HOST.ordinal()] += noHost;
    }

    /**
     * {@code ok + noHost + faultFailed} requests sent in the step of {@code nanos}: as {@link #requests(long, long,
     * long)} with {@code faultFailed} more that their host failed ({@link RequestFate#FAILED_FAULT}).
     */
    public void requests(long nanos, long ok, long noHost, long faultFailed) {
        int b = step(nanos);
        requests[b] += ok + noHost + faultFailed;
        failed[b] += noHost + faultFailed;
        outcomes[RequestFate.OK.ordinal()] += ok;
        outcomes[RequestFate.FAILED_NO_HOST.ordinal()] += noHost;
        outcomes[RequestFate.FAILED_FAULT.ordinal()] += faultFailed;
    }

    public SignalSeries finish() {
        fillBefore(Long.MAX_VALUE);
        long sent = 0;
        for (long n : outcomes) {
            sent += n;
        }
        SignalSeries series = new SignalSeries(
                stepNanos,
                hosts,
                ejectionsActive,
                membershipHealthy,
                healthCheckHealthy,
                ejectionsEnforced,
                requests,
                failed,
                panic,
                new RequestOutcomes(sent, outcomes[0], outcomes[1], outcomes[2], outcomes[3]),
                returnsByTime,
                returnsByHealthCheck,
                List.of());
        return new SignalSeries(
                stepNanos,
                hosts,
                ejectionsActive,
                membershipHealthy,
                healthCheckHealthy,
                ejectionsEnforced,
                requests,
                failed,
                panic,
                series.outcomes(),
                returnsByTime,
                returnsByHealthCheck,
                List.copyOf(flapping.finish(series)));
    }

    private int step(long nanos) {
        return (int) Math.min(stepIndex.of(nanos), ejectionsActive.length - 1L);
    }

    private void fillBefore(long nanos) {
        long upTo = Math.min(nanos / stepNanos, ejectionsActive.length);
        for (; filled < upTo; filled++) {
            ejectionsActive[filled] = currentEjected;
            membershipHealthy[filled] = currentHealthy;
            healthCheckHealthy[filled] = currentHcHealthy;
            panic[filled] = currentPanic;
        }
    }
}
