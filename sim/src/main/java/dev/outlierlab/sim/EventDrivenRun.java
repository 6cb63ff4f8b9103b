package dev.outlierlab.sim;

import dev.outlierlab.sim.fault.FaultInjector;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.signals.SignalRecorder;
import dev.outlierlab.sim.signals.SignalRecorder.RequestFate;

/**
 * The stretch planner of the event-driven path ({@link FastPath}): it cuts a run at its events (interval ticks, fault
 * edges, the series' steps, and each request that a fault fails, which may eject) and between them handles the
 * requests as arithmetic. Every caller's rotation is fixed between its own events ({@link CallerRotation}). Each
 * request to a host with an active fault is put to the fault injector, in send order over all callers
 * ({@link IndexedMinHeap}), so its counters and draws are those of {@link Simulation}'s per-request loop; a failure is
 * reported and recorded as that loop does, a request the fault lets through is reported to its host at once as a
 * success; every other request succeeds and is only counted, per host when its caller's epoch ends and per stretch
 * in the recorder. Ticks run before the first request at or after their time ("due ticks first"), after every
 * pending success is counted. Where callers disagree on panic, the panic windows follow them request by request, and
 * so does the recording.
 */
final class EventDrivenRun {
    private final LabCluster cluster;
    private final Caller[] callers;
    private final int clients;
    private final FaultInjector faults;
    private final RunRecorder recorder;
    private final SignalRecorder signals;
    private final SendSchedule schedule;
    private final CallerRotation[] rotations;
    private final IndexedMinHeap queue;
    private final boolean[] faulty;
    private final boolean[] none;
    private final HostRequests requests;
    private final PassBudget budget;
    private final CapacityGuard guard;
    /** Whether every host with an active fault in this segment has indexed faults only: {@link PassBudget} plans. */
    private boolean skipping;
    /** Outside split mode, the planned hosts' failures are folded ({@link FailureFold}) instead. */
    private final FailureFold fold;

    private boolean folding;
    /** Failures folded, failures a fold stopped at (each reaching the detector), failures folded and recorded one by one. */
    private long folded;

    private long stops;
    private long collected;

    private final int hostCount;
    private final long count;
    private final long stepNanos;
    private final RunWatcher watcher;
    private long nextDue;
    private long segmentEnd;
    private boolean duringFault;
    /** A time in the current fault segment: the fault injector answers for any time in it alike. */
    private long segmentNanos;

    private final Stretches stretches;

    /**
     * A run that folds its failures ({@link FailureFold}) with one caller only: with many callers folding gives the
     * same result but is not yet cheaper than planning them (docs/fast-path.md), so they are planned one by one.
     */
    EventDrivenRun(Scenario scenario, RunOptions options) {
        this(scenario, options, scenario.traffic().clients() == 1);
    }

    /**
     * @param foldFailures whether a run outside split mode folds its failures ({@link FailureFold}), with any number
     *                     of callers; without, they are planned one by one ({@link PassBudget}): the same result
     */
    EventDrivenRun(Scenario scenario, RunOptions options, boolean foldFailures) {
        this.cluster = new LabCluster(scenario, options);
        this.callers = cluster.callers;
        this.clients = callers.length;
        this.faults = cluster.faults;
        this.recorder = cluster.recorder;
        this.signals = recorder.signals();
        this.schedule = new SendSchedule(scenario);
        this.hostCount = scenario.cluster().size();
        this.rotations = new CallerRotation[clients];
        for (int c = 0; c < clients; c++) {
            rotations[c] = new CallerRotation(c, clients, hostCount);
        }
        this.queue = new IndexedMinHeap(clients);
        this.faulty = new boolean[hostCount];
        this.none = new boolean[hostCount];
        this.requests = new HostRequests(clients, hostCount);
        this.budget = new PassBudget(requests, faults, hostCount);
        this.guard = new CapacityGuard(scenario);
        this.stretches = new Stretches(rotations, schedule, recorder);
        this.fold = foldFailures && callers[0].foldsFailures()
                ? new FailureFold(callers, rotations, requests, schedule, faults, recorder, hostCount)
                : null;
        this.count = schedule.count();
        this.stepNanos = recorder.stepNanos();
        this.watcher = options.watcher();
    }

    RunResult run() {
        nextDue = cluster.nextDueNanos();
        enterSegment(0, 0);
        startAll(0);
        long dueAt = schedule.firstAtOrAfter(nextDue);
        long edgeAt = schedule.firstAtOrAfter(segmentEnd);
        if (skipping && !folding) {
            budget.planAll(0, Math.min(dueAt, edgeAt));
        }
        long stepAt = -1;
        long i = 0;
        long nextProgress = 0;
        while (i < count) {
            if (i >= nextProgress) {
                watcher.progress(i, count);
                nextProgress = (i / RunWatcher.EVERY_REQUESTS + 1) * RunWatcher.EVERY_REQUESTS;
            }
            if (i >= dueAt || i >= edgeAt) {
                long t = schedule.timeOf(i);
                if (skipping && !folding) {
                    budget.syncAll(i);
                }
                flushAll(i);
                if (i >= dueAt) {
                    cluster.runDue(t);
                    nextDue = cluster.nextDueNanos();
                    dueAt = schedule.firstAtOrAfter(nextDue);
                }
                if (i >= edgeAt) {
                    enterSegment(t, i);
                    edgeAt = schedule.firstAtOrAfter(segmentEnd);
                }
                startAll(i);
                if (skipping && !folding) {
                    budget.planAll(i, Math.min(dueAt, edgeAt));
                }
            }
            if (i >= stepAt) {
                stepAt = schedule.firstAtOrAfter((schedule.timeOf(i) / stepNanos + 1) * stepNanos);
            }
            long limit = Math.min(stepAt, Math.min(dueAt, edgeAt));
            i = folding ? foldTo(i, limit) : skipping ? skipTo(i, limit, Math.min(dueAt, edgeAt)) : walkTo(i, limit);
        }
        flushAll(count);
        return cluster.finish();
    }

    /**
     * How many failures were folded ({@link FailureFold}), how many reached the detector one by one after a fold, and
     * how many of the folded ones were recorded request by request (callers disagreeing on panic).
     */
    long[] foldCounts() {
        return new long[] {folded, stops, collected};
    }

    /**
     * From request {@code i} to {@code limit} (or the fold's window), or just past the first failure before it that
     * reaches the detector, folding the failures ({@link FailureFold}): the requests before that failure are counted.
     * Where the callers
     * disagree on panic the stretch is recorded request by request, with the failures the fold found.
     */
    private long foldTo(long i, long limit) {
        boolean collect = stretches.disagreeOnPanic();
        long end = fold.fold(i, limit, duringFault, collect);
        folded += fold.failed();
        collected += collect ? fold.failed() : 0;
        stretches.record(i, end, fold.failed(), collect ? fold.failedAt() : null, fold.failedCount(), duringFault);
        int host = fold.stopHost();
        if (host < 0) {
            return end;
        }
        stops++;
        int fault = faults.onRequestInSegment(host, segmentNanos);
        if (fault == FaultInjector.PASS) {
            throw new IllegalStateException("request " + end + " to host " + host + " was found to fail");
        }
        int c = (int) (end % clients);
        long j = schedule.callerRequestsBefore(c, end);
        CallerRotation rotation = rotations[c];
        rotation.failedAt(host, j, callers[c].monitors, recorder, duringFault);
        failing(end, schedule.timeOf(end), schedule.timeOrEnd(end + 1), host, fault);
        if (rotation.changed(callers[c].balancer)) {
            flush(c, j + 1);
            restart(c, j + 1);
            summarise();
        }
        return end + 1;
    }

    /**
     * From request {@code i} to {@code limit} or just past the first failure before it, when every host with an active
     * fault is planned by {@link PassBudget}: the requests before the failure are successes, counted.
     */
    private long skipTo(long i, long limit, long bound) {
        int host = budget.earliest();
        long next = host < 0 ? Long.MAX_VALUE : budget.nextFail(host);
        if (next >= limit) {
            stretch(i, limit);
            return limit;
        }
        int c = (int) (next % clients);
        CallerRotation rotation = rotations[c];
        stretch(i, next);
        budget.sync(host, next);
        int fault = faults.onRequestInSegment(host, segmentNanos);
        if (fault == FaultInjector.PASS) {
            throw new IllegalStateException("request " + next + " to host " + host + " was planned to fail");
        }
        budget.failed(host, next);
        long j = schedule.callerRequestsBefore(c, next);
        rotation.failedAt(host, j, callers[c].monitors, recorder, duringFault);
        failing(next, schedule.timeOf(next), schedule.timeOrEnd(next + 1), host, fault);
        long after = next + 1;
        if (rotation.changed(callers[c].balancer)) {
            budget.syncAll(after);
            flush(c, j + 1);
            restart(c, j + 1);
            summarise();
            budget.planAll(after, bound);
        } else {
            budget.plan(host, after, bound);
        }
        return after;
    }

    /**
     * From request {@code i} to {@code limit} or just past the first failure before it, putting each request to a host
     * with an active fault to the injector in send order.
     */
    private long walkTo(long i, long limit) {
        long next = queue.firstKey();
        int fault = FaultInjector.PASS;
        while (next < limit) {
            // a request to a host with an active fault: the fault decides it, in send order at that host
            int c = queue.first();
            CallerRotation rotation = rotations[c];
            fault = faults.onRequestInSegment(rotation.nextFaultyHost(), segmentNanos);
            if (fault != FaultInjector.PASS) {
                break;
            }
            // let through: a success, reported to its host now (so that the host's monitor sees its requests
            // in order) and counted in the stretch it belongs to, which goes on
            int host = rotation.nextFaultyHost();
            callers[c].monitors[host].putSuccesses(1);
            callers[c].carried();
            recorder.hostSuccesses(host, 1, duringFault);
            rotation.advance();
            queue.update(c, rotation.nextFaultyRequest());
            next = queue.firstKey();
        }
        if (next >= limit) {
            stretch(i, limit);
            return limit;
        }
        int c = queue.first();
        CallerRotation rotation = rotations[c];
        stretch(i, next);
        failing(next, schedule.timeOf(next), schedule.timeOrEnd(next + 1), rotation.nextFaultyHost(), fault);
        long after = next + 1;
        if (rotation.changed(callers[c].balancer)) {
            long j = schedule.callerRequestsBefore(c, after);
            flush(c, j);
            restart(c, j);
            summarise();
        } else {
            rotation.advance();
            queue.update(c, rotation.nextFaultyRequest());
        }
        return after;
    }

    /**
     * Moves to the fault segment holding {@code t}, from request {@code i}: which hosts fail, whether a fault is
     * active, until when, and whether the hosts that fail are planned ({@link PassBudget}) or walked.
     */
    private void enterSegment(long t, long i) {
        segmentEnd = faults.segmentEndNanos(t);
        duringFault = faults.anyActive(t);
        segmentNanos = t;
        skipping = true;
        requests.clear();
        for (int h = 0; h < hostCount; h++) {
            faulty[h] = faults.hasActiveFault(h, t);
            if (faulty[h] && !faults.indexedAt(h, t)) {
                skipping = false;
            }
        }
        folding = skipping && fold != null;
        if (folding) {
            fold.enter(faulty);
        } else if (skipping) {
            budget.enter(faulty, i);
        }
    }

    /** Counts every caller's pending successes up to request {@code i}. */
    private void flushAll(long i) {
        for (int c = 0; c < clients; c++) {
            flush(c, schedule.callerRequestsBefore(c, i));
        }
    }

    /**
     * Counts caller {@code c}'s pending successes up to its request number {@code j}; if it sent any request to a host,
     * its health checker learns that the cluster carries traffic, as each reported request tells it on the
     * per-request path (the probes after it use the traffic intervals).
     */
    private void flush(int c, long j) {
        if (rotations[c].flush(j, callers[c].monitors, recorder, duringFault)) {
            callers[c].carried();
        }
    }

    /** Starts every caller's epoch at request {@code i}, with the balancers and faults as they are now. */
    private void startAll(long i) {
        for (int c = 0; c < clients; c++) {
            restart(c, schedule.callerRequestsBefore(c, i));
        }
        summarise();
    }

    private void restart(int c, long firstRequest) {
        if (skipping) {
            long version = callers[c].balancer.version();
            boolean rejoin = requests.leave(c, rotations[c], version);
            rotations[c].start(firstRequest, callers[c].balancer, none);
            if (rejoin) {
                requests.join(c, rotations[c], version);
            }
        } else {
            rotations[c].start(firstRequest, callers[c].balancer, faulty);
        }
        guard.epoch(c, rotations[c].size(), schedule.timeOrEnd(Math.min(count, firstRequest * clients + c)));
        queue.update(c, rotations[c].nextFaultyRequest());
    }

    private void summarise() {
        stretches.summarise();
    }

    private void stretch(long from, long to) {
        stretches.record(from, to, 0, null, 0, duringFault);
    }

    /**
     * Request {@code i}, sent at {@code t} (the next at {@code next}, or the run's end) to {@code host}, which the
     * fault {@code fault} has failed (the injector has counted it): reported and recorded as {@link Simulation} does.
     */
    private void failing(long i, long t, long next, int host, int fault) {
        int c = (int) (i % clients);
        Caller caller = callers[c];
        boolean panic = caller.balancer.inPanic();
        if (caller.pick(i / clients) != host) {
            throw new IllegalStateException("request " + i + " did not go to host " + host);
        }
        FaultSpec spec = faults.fault(fault);
        caller.report(host, spec.status(), spec.result(), t);
        recorder.hostRequest(host, true, duringFault);
        recorder.request(c, t, next, true, duringFault, panic, false);
        signals.request(t, RequestFate.FAILED_FAULT);
    }
}
