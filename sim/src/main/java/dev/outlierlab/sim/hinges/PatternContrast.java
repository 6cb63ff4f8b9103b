package dev.outlierlab.sim.hinges;

import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.RunResult;
import dev.outlierlab.sim.RunWatcher;
import dev.outlierlab.sim.Simulation;
import dev.outlierlab.sim.scenario.FaultPattern;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.ArrayList;
import java.util.List;

/**
 * The same scenario with the other fault pattern, even and random swapped for every fault that has one of them
 * at a rate strictly between 0 and 100 % (bursts, and faults that fail all or nothing, stay), run to see whether the decisions hinge on how failures are spread: a host failing 30 % never
 * fails five times in a row evenly and does so at random within seconds (lab-model section 5). The decisions
 * differ when the two runs' counts of detections, ejections, refusals or returns, or their first ejection's time,
 * differ (the counts are over every decision, kept or not).
 *
 * @param sets     the {@code --set} overrides that make the other run, e.g. {@code faults[0].pattern=random}
 * @param otherPattern the pattern the first swapped fault takes
 * @param other    the other run, or null when it was not run ({@link #planned})
 * @param differ   whether the decisions differ (false when not run)
 */
public record PatternContrast(List<String> sets, FaultPattern otherPattern, RunResult other, boolean differ) {

    /** The scenario with even and random swapped, or null when no fault has either. */
    public static Scenario swapped(Scenario s) {
        List<FaultSpec> faults = new ArrayList<>();
        boolean any = false;
        for (FaultSpec f : s.faults()) {
            FaultPattern p = flips(f) ? other(f.pattern()) : f.pattern();
            any |= p != f.pattern();
            faults.add(f.toBuilder().pattern(p).build());
        }
        return any ? s.toBuilder().faults(faults).build() : null;
    }

    /**
     * Runs the other pattern of {@code run}'s scenario (watched by {@code watcher}) and compares; null when no
     * fault has the even or random pattern.
     */
    public static PatternContrast of(RunResult run, RunWatcher watcher) {
        PatternContrast planned = planned(run.scenario());
        if (planned == null) {
            return null;
        }
        RunResult other = Simulation.run(swapped(run.scenario()), RunOptions.DEFAULT.watchedBy(watcher));
        return new PatternContrast(
                planned.sets(), planned.otherPattern(), other, !decisions(run).equals(decisions(other)));
    }

    /**
     * The contrast without its run (a run too long to repeat): the overrides that make it, {@code other} null;
     * null when no fault has the even or random pattern.
     */
    public static PatternContrast planned(Scenario s) {
        if (swapped(s) == null) {
            return null;
        }
        List<String> sets = new ArrayList<>();
        FaultPattern shown = null;
        for (int i = 0; i < s.faults().size(); i++) {
            FaultSpec f = s.faults().get(i);
            if (flips(f)) {
                FaultPattern p = other(f.pattern());
                sets.add("faults[" + i + "].pattern=" + p.scenarioName());
                shown = shown == null ? p : shown;
            }
        }
        return new PatternContrast(List.copyOf(sets), shown, null, false);
    }

    /** Whether the fault's pattern is swapped: even or random at a rate strictly between 0 and 100 %. */
    private static boolean flips(FaultSpec f) {
        return f.pattern() != FaultPattern.BURSTS && f.errorRatePpm() > 0 && f.errorRatePpm() < FaultSpec.PPM;
    }

    private static FaultPattern other(FaultPattern p) {
        return switch (p) {
            case EVEN -> FaultPattern.RANDOM;
            case RANDOM -> FaultPattern.EVEN;
            case BURSTS -> FaultPattern.BURSTS;
        };
    }

    /** Detections, ejections, refusals, returns and the first ejection's time. */
    private static List<Long> decisions(RunResult r) {
        return List.of(
                r.summary().ejectionsDetected(),
                r.summary().ejectionsEnforced(),
                r.summary().ejectionsOverflow(),
                r.summary().returns(),
                firstEjectionNanos(r));
    }

    /** The first ejection's time in {@code r}, or -1. */
    public static long firstEjectionNanos(RunResult r) {
        return r.events().stream()
                .filter(e -> e.action() == EventAction.EJECT)
                .mapToLong(OutlierEvent::timeNanos)
                .findFirst()
                .orElse(-1);
    }
}
