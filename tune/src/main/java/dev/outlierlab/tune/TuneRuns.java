package dev.outlierlab.tune;

import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.RunResult;
import dev.outlierlab.sim.RunSummary;
import dev.outlierlab.sim.WorkEstimate;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.LongConsumer;

/**
 * Runs suite scenarios through {@link Simulation} (the same run as {@code outlier-lab run}) and reduces each
 * result to its {@link RunFigures}. Runs are independent, so they go to a fixed pool of threads; results are
 * collected in the order asked, so the output does not depend on the threads. The default {@link RunExecutor}.
 */
public final class TuneRuns implements RunExecutor {
    /** Outlier detection that never ejects: every enforcement at 0. */
    public static final OutlierDetectionConfig OFF = OutlierDetectionConfig.builder()
            .set(OutlierSetting.ENFORCING_CONSECUTIVE_5XX, 0)
            .set(OutlierSetting.ENFORCING_SUCCESS_RATE, 0)
            .set(OutlierSetting.ENFORCING_CONSECUTIVE_GATEWAY_FAILURE, 0)
            .set(OutlierSetting.ENFORCING_CONSECUTIVE_LOCAL_ORIGIN_FAILURE, 0)
            .set(OutlierSetting.ENFORCING_LOCAL_ORIGIN_SUCCESS_RATE, 0)
            .set(OutlierSetting.ENFORCING_FAILURE_PERCENTAGE, 0)
            .set(OutlierSetting.ENFORCING_FAILURE_PERCENTAGE_LOCAL_ORIGIN, 0)
            .build();

    /** One run to make: a scenario of the suite as it is to be simulated, and under which profile. */
    public record Job(SuiteScenario suite, Scenario scenario, RunProfile profile) {
        /** A run of Envoy's simulation. */
        public Job(SuiteScenario suite, Scenario scenario) {
            this(suite, scenario, RunProfile.ENVOY);
        }
    }

    private final int threads;

    public TuneRuns(int threads) {
        this.threads = Math.max(1, threads);
    }

    /** Runs every job and returns their figures in the same order; {@code progress} gets each finished run's work. */
    @Override
    public List<RunFigures> run(List<Job> jobs, LongConsumer progress) {
        if (threads == 1 || jobs.size() < 2) {
            List<RunFigures> out = new ArrayList<>();
            for (Job j : jobs) {
                out.add(figures(j));
                progress.accept(units(j));
            }
            return out;
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "tune");
            t.setDaemon(true);
            return t;
        });
        try {
            // the dearest runs first (by their planned CPU cost), so that a wave does not end on one thread running
            // its longest run alone while the others wait (a wave's runs differ by a hundred times); the figures come
            // back in the order asked
            double[] cost = new double[jobs.size()];
            Integer[] order = new Integer[jobs.size()];
            for (int i = 0; i < order.length; i++) {
                cost[i] = RunCost.planned(jobs.get(i)).nanos();
                order[i] = i;
            }
            Arrays.sort(
                    order, Comparator.comparingDouble((Integer i) -> -cost[i]).thenComparingInt(i -> i));
            List<Future<RunFigures>> futures = new ArrayList<>(Collections.nCopies(order.length, null));
            for (int i : order) {
                Job j = jobs.get(i);
                long work = units(j);
                futures.set(i, pool.submit(() -> {
                    RunFigures f = figures(j);
                    synchronized (progress) {
                        progress.accept(work);
                    }
                    return f;
                }));
            }
            List<RunFigures> out = new ArrayList<>();
            for (Future<RunFigures> f : futures) {
                out.add(f.get());
            }
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("tune was interrupted", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * The work of one job in request-equivalents ({@link WorkEstimate}), with each health-check probe at one
     * request-equivalent rather than a host evaluation's {@link WorkEstimate#UNITS_PER_HOST_EVALUATION}: the correct
     * action's check probes every host every 100 ms from every caller, and counted as evaluations it came to most of
     * a search's estimate with many callers while costing a few percent of its time.
     */
    public static long units(Job j) {
        if (j.profile() == RunProfile.ENVOY) {
            // the path Simulation.run takes: the event-driven one where it applies
            long units =
                    WorkEstimate.ofRun(j.scenario(), RunOptions.DEFAULT, false).units();
            long probes = WorkEstimate.healthCheckProbes(j.scenario());
            return units - Math.min(units / 2, probes * (WorkEstimate.UNITS_PER_HOST_EVALUATION - 1));
        }
        return j.profile().units(j.scenario());
    }

    /** Simulates one job and reduces it to its figures. */
    public static RunFigures figures(Job job) {
        return job.profile().figures(job.suite(), job.scenario());
    }

    /** A run of the lab's simulator (Envoy's, or a profile's on the detector contract) reduced to its figures. */
    public static RunFigures figures(SuiteScenario suite, RunResult r) {
        RunSummary s = r.summary();
        EjectionTally tally = new EjectionTally(suite);
        List<OutlierEvent> events = r.events();
        for (int i = 0; i < events.size(); i++) {
            OutlierEvent e = events.get(i);
            if (e.action() == EventAction.EJECT) {
                tally.eject(r.clientOf(i), e.host(), e.timeNanos());
            } else if (e.action() == EventAction.UNEJECT) {
                tally.uneject(r.clientOf(i), e.host(), e.timeNanos());
            }
        }
        long duration = r.scenario().durationNanos();
        // with several callers a host out for one caller is out for that caller's share of the traffic
        return new RunFigures(
                s.requests(),
                s.failed(),
                s.requestsDuringFault(),
                s.failedDuringFault(),
                s.ejectionsEnforced(),
                s.ejectionsOverflow(),
                tally.falseEjections(),
                tally.healthyNanos(duration, r.clients()),
                s.maxEjectedAtOnce(),
                s.panicNanos(),
                tally.detectNanos(),
                tally.returnNanos(duration),
                s.upstreamAttempts(),
                s.upstreamFailed(),
                s.slowRequests(),
                s.slowNanos());
    }
}
