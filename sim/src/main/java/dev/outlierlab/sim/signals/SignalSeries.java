package dev.outlierlab.sim.signals;

import java.util.List;

/**
 * The signals an operator's dashboard shows (seed 003), one sample per step (a second, unless the run is
 * longer than the recorder's step limit). Gauges are sampled at the end of each step, as a per-second scrape
 * would see them; counters count what happened within the step.
 *
 * @param membershipTotal    Envoy's {@code membership_total}: hosts in the cluster
 * @param ejectionsActive    Envoy's {@code outlier_detection.ejections_active}
 * @param membershipHealthy  Envoy's {@code membership_healthy}: hosts neither ejected nor failed by active health
 *                           checks (Envoy's {@code coarseHealth()} counts an ejected host unhealthy)
 * @param healthCheckHealthy hosts not failed by active health checks (the probes' own view, Envoy's
 *                           {@code health_check.healthy} when every host is checked)
 * @param ejectionsEnforced  ejections in the step: the rate of {@code ejections_enforced_total}
 * @param requests           requests sent in the step
 * @param failed             requests that failed in the step
 * @param panic              1 when the cluster was in panic at the end of the step
 * @param outcomes           the run's requests by outcome
 * @param returnsByTime      returns to rotation because the ejection time ran out
 * @param returnsByHealthCheck returns by a passing active health check
 * @param flapping           every episode of flapping ({@link Flapping}), from all of the run's events
 */
public record SignalSeries(
        long stepNanos,
        int membershipTotal,
        int[] ejectionsActive,
        int[] membershipHealthy,
        int[] healthCheckHealthy,
        long[] ejectionsEnforced,
        long[] requests,
        long[] failed,
        int[] panic,
        RequestOutcomes outcomes,
        long returnsByTime,
        long returnsByHealthCheck,
        List<Flapping.Episode> flapping) {

    public int size() {
        return ejectionsActive.length;
    }
}
