package dev.outlierlab.sim;

import dev.outlierlab.engine.envoy.OutlierStats;
import dev.outlierlab.engine.envoy.event.DegradationEvent;
import dev.outlierlab.engine.envoy.event.DetectorListener;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.IntervalEvaluation;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.signals.SignalRecorder;
import dev.outlierlab.sim.traffic.LoadBalancer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Collects what a run produces: every caller's detector events (and keeps that caller's load balancer in step
 * with them), caller 0's interval evaluations, per-request counts, the time series and panic windows, and the
 * caller-time each host spent ejected; then builds the {@link RunResult}. The requests' totals, series and panic
 * time are a {@link RequestTally}. With several callers the counts are
 * over all of them, the signal series' membership is caller 0's view, and each event's caller is kept.
 */
final class RunRecorder implements DetectorListener {
    private final Map<String, Integer> hostIndex;
    private final RunOptions options;
    private final List<OutlierEvent> events = new ArrayList<>();
    private final List<IntervalEvaluation> intervals = new ArrayList<>();
    private final List<DegradationEvent> degradations = new ArrayList<>();
    private final List<Integer> degradationPositions = new ArrayList<>();
    private final RequestTally tally;
    private final long[][] hostCounts;
    private final int clients;
    private final List<Integer> eventClients = new ArrayList<>();
    /** ejectedSince[c * hosts + h]: when caller c last ejected host h while it was in rotation, or -1. */
    private final long[] ejectedSince;

    private final long[] hostEjectedNanos;
    /** anyEjectedSince[c]: since when caller c has had at least one host ejected, or -1. */
    private final long[] anyEjectedSince;

    private long anyEjectedNanos;
    private LoadBalancer[] balancers;
    private SignalRecorder signals;
    private final long durationNanos;

    private long unenforced;
    private long returns;
    private int maxEjected;
    private long eventCount;
    private int eventHostWidth;
    private RetryWaits waits = new RetryWaits();

    RunRecorder(Map<String, Integer> hostIndex, long durationNanos, RunOptions options, int clients) {
        this.hostIndex = hostIndex;
        this.clients = clients;
        this.ejectedSince = new long[clients * hostIndex.size()];
        Arrays.fill(ejectedSince, -1);
        this.hostEjectedNanos = new long[hostIndex.size()];
        this.anyEjectedSince = new long[clients];
        Arrays.fill(anyEjectedSince, -1);
        this.options = options;
        this.durationNanos = durationNanos;
        this.tally = new RequestTally(durationNanos, options.maxSeriesSteps());
        hostCounts = new long[hostIndex.size()][4];
    }

    /** One request (or, with retries, one attempt) that reached {@code host}: counted in its {@link HostTally}. */
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

    /** {@code n} successful requests to {@code host}: as many {@link #hostRequest} calls that did not fail. */
    void hostSuccesses(int host, long n, boolean duringFault) {
        long[] c = hostCounts[host];
        c[0] += n;
        if (duringFault) {
            c[2] += n;
        }
    }

    /** {@code n} failed requests to {@code host}: as many {@link #hostRequest} calls that failed. */
    void hostFailures(int host, long n, boolean duringFault) {
        long[] c = hostCounts[host];
        c[0] += n;
        c[1] += n;
        if (duringFault) {
            c[2] += n;
            c[3] += n;
        }
    }

    /** The slow requests of a run whose route retries ({@link RoutedRequests}); none otherwise. */
    void slow(RetryWaits tally) {
        this.waits = tally;
    }

    /** The length of a step of the time series and of the signal series. */
    long stepNanos() {
        return tally.stepNanos();
    }

    void attach(Caller[] callers) {
        this.balancers = new LoadBalancer[callers.length];
        for (int c = 0; c < callers.length; c++) {
            balancers[c] = callers[c].balancer;
        }
        this.signals = new SignalRecorder(balancers[0], hostIndex.size(), durationNanos, tally.stepNanos());
    }

    /** One caller whose balancer is {@code balancer} (a detector run by {@link DetectorSimulation}). */
    void attach(LoadBalancer balancer) {
        this.balancers = new LoadBalancer[] {balancer};
        this.signals = new SignalRecorder(balancer, hostIndex.size(), durationNanos, tally.stepNanos());
    }

    SignalRecorder signals() {
        return signals;
    }

    /** The decisions kept so far, in time order (a live replay hands them on as they are made). */
    List<OutlierEvent> eventsSoFar() {
        return Collections.unmodifiableList(events);
    }

    @Override
    public void onEvent(OutlierEvent event) {
        onEvent(0, event);
    }

    /** A decision of caller {@code client}'s detector. */
    void onEvent(int client, OutlierEvent event) {
        if (events.size() < options.keepEvents()) {
            events.add(event);
            if (clients > 1) {
                eventClients.add(client);
            }
        }
        eventCount++;
        boolean viewed = client == 0;
        if (viewed) {
            signals.event(event);
        }
        eventHostWidth = Math.max(eventHostWidth, event.host().length());
        LoadBalancer balancer = balancers[client];
        long now = event.timeNanos();
        if (event.action() == EventAction.EJECT) {
            int h = hostIndex.get(event.host());
            int at = client * hostIndex.size() + h;
            if (ejectedSince[at] < 0) {
                ejectedSince[at] = now;
            }
            if (anyEjectedSince[client] < 0) {
                anyEjectedSince[client] = now;
            }
            balancer.setEjected(h, true);
            maxEjected = Math.max(maxEjected, balancer.ejectedCount());
            if (viewed) {
                signals.ejected(now);
            }
        } else if (event.action() == EventAction.UNEJECT) {
            int h = hostIndex.get(event.host());
            int at = client * hostIndex.size() + h;
            if (ejectedSince[at] >= 0) {
                hostEjectedNanos[h] += now - ejectedSince[at];
                ejectedSince[at] = -1;
            }
            balancer.setEjected(h, false);
            if (balancer.ejectedCount() == 0 && anyEjectedSince[client] >= 0) {
                anyEjectedNanos += now - anyEjectedSince[client];
                anyEjectedSince[client] = -1;
            }
            returns++;
            if (viewed) {
                signals.membershipChanged(now);
            }
        } else if (event.action() == EventAction.UNENFORCED) {
            unenforced++;
        }
    }

    @Override
    public void onDegradation(DegradationEvent event) {
        onDegradation(0, event);
    }

    /**
     * Caller {@code client}'s detector marked a host degraded or cleared it: its balancer follows; caller 0's are
     * kept (as many as events are).
     */
    void onDegradation(int client, DegradationEvent event) {
        balancers[client].setDegraded(hostIndex.get(event.host()), event.degraded());
        if (client == 0 && degradations.size() < options.keepEvents()) {
            degradations.add(event);
            degradationPositions.add(events.size());
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
        request(0, nanos, nextNanos, isFailed, duringFault, panic, noHost);
    }

    /**
     * One request of caller {@code client}: {@code panic} is that caller's state; the time charged in panic runs
     * to the cluster's next request, so that panic seconds with every caller in panic are the cluster's time.
     */
    void request(
            int client,
            long nanos,
            long nextNanos,
            boolean isFailed,
            boolean duringFault,
            boolean panic,
            boolean noHost) {
        tally.request(nanos, nextNanos, isFailed, duringFault, panic, noHost, balancers[client].ejectedCount());
    }

    /**
     * A stretch of {@code count} requests, the first sent at {@code fromNanos}, the request after the last at
     * {@code toNanos} (or the run's end), all in one step of the series: exactly {@code count} calls of
     * {@link #request} whose callers had at most {@code ejected} hosts ejected (one of them exactly that many),
     * that succeeded but for {@code noHost} that found no eligible host, all in panic or none, during a fault or
     * not. The panic time of consecutive requests telescopes to {@code toNanos - fromNanos}.
     */
    void stretch(
            long fromNanos, long toNanos, long count, long noHost, int ejected, boolean duringFault, boolean panic) {
        tally.stretch(fromNanos, toNanos, count, noHost, 0, ejected, duringFault, panic);
    }

    /**
     * {@link #stretch} in which {@code faultFailed} of the requests that found a host failed: as many
     * {@link #request} calls with {@code isFailed} (their callers' ejected hosts the same throughout).
     */
    void stretch(
            long fromNanos,
            long toNanos,
            long count,
            long noHost,
            long faultFailed,
            int ejected,
            boolean duringFault,
            boolean panic) {
        tally.stretch(fromNanos, toNanos, count, noHost, faultFailed, ejected, duringFault, panic);
    }

    RunResult finish(Scenario scenario, List<OutlierStats> perCaller) {
        long detected = 0;
        long enforced = 0;
        long overflow = 0;
        Map<String, Long> stats = new LinkedHashMap<>();
        for (OutlierStats s : perCaller) {
            detected += s.detectedTotal();
            enforced += s.ejectionsEnforcedTotal();
            overflow += s.ejectionsOverflow();
            s.asMap().forEach((name, value) -> stats.merge(name, value, Long::sum));
        }
        return finish(scenario, new RunTotals(detected, enforced, overflow, stats));
    }

    /** Builds the result from the totals of a profile's detectors (every caller's, summed). */
    RunResult finish(Scenario scenario, RunTotals totals) {
        tally.finish();
        int hosts = hostIndex.size();
        for (int c = 0; c < clients; c++) {
            for (int h = 0; h < hosts; h++) {
                long since = ejectedSince[c * hosts + h];
                if (since >= 0) {
                    hostEjectedNanos[h] += durationNanos - since;
                }
            }
            if (anyEjectedSince[c] >= 0) {
                anyEjectedNanos += durationNanos - anyEjectedSince[c];
            }
        }
        long attempts = 0;
        long attemptsFailed = 0;
        for (long[] c : hostCounts) {
            attempts += c[0];
            attemptsFailed += c[1];
        }
        long requests = tally.requests();
        long noHealthyUpstream = tally.noHealthyUpstream();
        if (attempts == 0 && requests > noHealthyUpstream) {
            // a profile that keeps no per-host counts: each request that found a host was one attempt
            attempts = requests - noHealthyUpstream;
            attemptsFailed = tally.failed() - noHealthyUpstream;
        }
        RunSummary summary = new RunSummary(
                requests,
                tally.failed(),
                tally.requestsDuringFault(),
                tally.failedDuringFault(),
                totals.detected(),
                totals.enforced(),
                totals.overflow(),
                unenforced,
                returns,
                tally.panicNanos(),
                noHealthyUpstream,
                maxEjected,
                clients,
                anyEjectedNanos,
                attempts,
                attemptsFailed,
                waits.requests(),
                waits.nanos());
        TimeSeries series = tally.series();
        List<HostTally> tallies = new ArrayList<>();
        List<String> names = scenario.cluster().hosts();
        for (int h = 0; h < hostCounts.length; h++) {
            long[] c = hostCounts[h];
            tallies.add(new HostTally(names.get(h), c[0], c[1], c[2], c[3], hostEjectedNanos[h]));
        }
        return new RunResult(
                scenario,
                summary,
                totals.stats(),
                List.copyOf(events),
                List.copyOf(intervals),
                tally.panicWindows(),
                series,
                List.copyOf(tallies),
                signals.finish(),
                eventCount,
                eventHostWidth,
                List.copyOf(eventClients),
                List.copyOf(degradations),
                List.copyOf(degradationPositions));
    }
}
