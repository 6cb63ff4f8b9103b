package dev.outlierlab.sim;

import dev.outlierlab.engine.envoy.OutlierStats;
import dev.outlierlab.engine.envoy.event.DetectorListener;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.IntervalEvaluation;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.sim.signals.SignalRecorder;
import dev.outlierlab.sim.signals.StepIndex;
import dev.outlierlab.sim.traffic.LoadBalancer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Collects what a run produces: the detector's events (and keeps the load balancer's view of ejected hosts in
 * step with them), interval evaluations, per-request counts, the time series and panic windows; then builds
 * the {@link RunResult}.
 */
final class RunRecorder implements DetectorListener {
    private final Map<String, Integer> hostIndex;
    private final RunOptions options;
    private final List<OutlierEvent> events = new ArrayList<>();
    private final List<IntervalEvaluation> intervals = new ArrayList<>();
    private final List<PanicWindow> panicWindows = new ArrayList<>();
    private final long stepNanos;
    private final StepIndex stepIndex;
    private final long[] seriesRequests;
    private final long[] seriesFailed;
    private final int[] seriesMaxEjected;
    private final long[] seriesPanic;
    private final long[][] hostCounts;
    private LoadBalancer balancer;
    private SignalRecorder signals;
    private final long durationNanos;

    private long requests;
    private long failed;
    private long requestsDuringFault;
    private long failedDuringFault;
    private long panicNanos;
    private long noHealthyUpstream;
    private long unenforced;
    private long returns;
    private int maxEjected;
    private long eventCount;
    private int eventHostWidth;
    private long panicStart = -1;
    private long panicEnd;

    RunRecorder(Map<String, Integer> hostIndex, long durationNanos, RunOptions options) {
        this.hostIndex = hostIndex;
        this.options = options;
        this.durationNanos = durationNanos;
        long second = 1_000_000_000L;
        long maxSteps = Math.max(1, options.maxSeriesSteps());
        long stepSeconds = Math.max(1, (durationNanos + maxSteps * second - 1) / (maxSteps * second));
        this.stepNanos = stepSeconds * second;
        this.stepIndex = new StepIndex(stepNanos);
        int buckets = (int) ((durationNanos + stepNanos - 1) / stepNanos);
        seriesRequests = new long[buckets];
        seriesFailed = new long[buckets];
        seriesMaxEjected = new int[buckets];
        seriesPanic = new long[buckets];
        hostCounts = new long[hostIndex.size()][4];
    }

    /** One request that reached {@code host}: counted in that host's {@link HostTally}. */
    void hostRequest(int host, boolean isFailed, boolean duringFault) {
        long[] c = hostCounts[host];
        c[0]++;
        if (isFailed) {
            c[1]++;
        }
        if (duringFault) {
            c[2]++;
            if (isFailed) {
                c[3]++;
            }
        }
    }

    void attach(LoadBalancer balancer) {
        this.balancer = balancer;
        this.signals = new SignalRecorder(balancer, hostIndex.size(), durationNanos, stepNanos);
    }

    SignalRecorder signals() {
        return signals;
    }

    @Override
    public void onEvent(OutlierEvent event) {
        if (events.size() < options.keepEvents()) {
            events.add(event);
        }
        eventCount++;
        signals.event(event);
        eventHostWidth = Math.max(eventHostWidth, event.host().length());
        if (event.action() == EventAction.EJECT) {
            balancer.setEjected(hostIndex.get(event.host()), true);
            maxEjected = Math.max(maxEjected, balancer.ejectedCount());
            signals.ejected(event.timeNanos());
        } else if (event.action() == EventAction.UNEJECT) {
            balancer.setEjected(hostIndex.get(event.host()), false);
            returns++;
            signals.membershipChanged(event.timeNanos());
        } else if (event.action() == EventAction.UNENFORCED) {
            unenforced++;
        }
    }

    @Override
    public boolean wantsIntervals() {
        return options.keepIntervals();
    }

    @Override
    public void onInterval(IntervalEvaluation evaluation) {
        intervals.add(evaluation);
    }

    /**
     * One request sent at {@code nanos}; {@code nextNanos} is when the next one is sent (or the run's end),
     * which bounds the time this request is charged in panic.
     */
    void request(long nanos, long nextNanos, boolean isFailed, boolean duringFault, boolean panic, boolean noHost) {
        int b = (int) stepIndex.of(nanos);
        requests++;
        seriesRequests[b]++;
        int ejectedNow = balancer.ejectedCount();
        if (ejectedNow > seriesMaxEjected[b]) {
            seriesMaxEjected[b] = ejectedNow;
        }
        if (isFailed) {
            failed++;
            seriesFailed[b]++;
        }
        if (duringFault) {
            requestsDuringFault++;
            if (isFailed) {
                failedDuringFault++;
            }
        }
        if (noHost) {
            noHealthyUpstream++;
        }
        if (panic) {
            long dt = nextNanos - nanos;
            panicNanos += dt;
            seriesPanic[b] += dt;
            if (panicStart < 0) {
                panicStart = nanos;
            }
            panicEnd = nextNanos;
        } else if (panicStart >= 0) {
            panicWindows.add(new PanicWindow(panicStart, panicEnd));
            panicStart = -1;
        }
    }

    RunResult finish(dev.outlierlab.sim.scenario.Scenario scenario, OutlierStats stats) {
        return finish(scenario, new RunTotals(stats.detectedTotal(), stats.ejectionsEnforcedTotal(),
                stats.ejectionsOverflow(), stats.asMap()));
    }

    /** Builds the result from a detector of any profile's totals. */
    RunResult finish(dev.outlierlab.sim.scenario.Scenario scenario, RunTotals totals) {
        if (panicStart >= 0) {
            panicWindows.add(new PanicWindow(panicStart, panicEnd));
            panicStart = -1;
        }
        RunSummary summary = new RunSummary(requests, failed, requestsDuringFault, failedDuringFault,
                totals.detected(), totals.enforced(), totals.overflow(), unenforced, returns,
                panicNanos, noHealthyUpstream, maxEjected);
        TimeSeries series = new TimeSeries(stepNanos, seriesRequests, seriesFailed, seriesMaxEjected, seriesPanic);
        List<HostTally> tallies = new ArrayList<>();
        List<String> names = scenario.cluster().hosts();
        for (int h = 0; h < hostCounts.length; h++) {
            long[] c = hostCounts[h];
            tallies.add(new HostTally(names.get(h), c[0], c[1], c[2], c[3]));
        }
        return new RunResult(scenario, summary, totals.stats(), List.copyOf(events), List.copyOf(intervals),
                List.copyOf(panicWindows), series, List.copyOf(tallies), signals.finish(), eventCount,
                eventHostWidth);
    }
}
