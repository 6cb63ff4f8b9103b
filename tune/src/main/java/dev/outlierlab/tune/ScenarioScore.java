package dev.outlierlab.tune;

import java.util.List;

/**
 * One candidate on one suite scenario, seed by seed, beside detection off and the correct action on the same seeds.
 * The share of avoidable failures removed is {@code (off - this) / (off - correct)}: 100 % is as good as the
 * correct action, 0 % no better than detection off, below 0 worse than off (-100 % where off loses nothing and
 * this setting adds failures: {@link #removedPercent(int)}). Failures are the requests that failed
 * for their callers: with the route's retries in effect ({@link #retried()}) a refused attempt retried on another
 * host is not one, and the attempts' own failures (what the detectors see) are reported beside them.
 *
 * <p>The counted harm is failed requests plus slow ones ({@link RunFigures#harmed()}): a request answered only after
 * waiting for a timed-out attempt (nginx retrying on the next server after {@code proxy_read_timeout}) did not fail,
 * but its caller waited that long, and a setting that takes the timing-out host out spares the next callers that
 * wait. So a request delayed by a failed attempt counts as one failure would, in the share removed; a refused
 * connection retried at once delays nothing and counts nothing. Where no run waits for anything, it is the failures
 * alone.
 */
public record ScenarioScore(
        SuiteScenario scenario, List<RunFigures> runs, List<RunFigures> off, List<RunFigures> correct) {
    public ScenarioScore {
        runs = List.copyOf(runs);
        off = List.copyOf(off);
        correct = List.copyOf(correct);
    }

    /**
     * The share removed on seed {@code i} in percent. Where the correct action avoids nothing (detection off already
     * loses nothing here, as when the route retries the failing host's answers on another host), it is NaN, unless
     * a host should be ejected here and this setting harms more than one request in 1,000 beyond detection off: then
     * -100 % (all it leaves it added; a
     * setting that stops retrying a 503 to catch timeouts must not count as removing what it added).
     */
    public double removedPercent(int i) {
        RunFigures run = runs.get(i);
        long avoidable = off.get(i).harmed() - correct.get(i).harmed();
        if (avoidable <= 0) {
            long added = run.harmed() - off.get(i).harmed();
            return scenario.expect() == Expectation.EJECT
                            && added * 1000.0 > run.requests() * Evaluation.DEFAULT_MAX_ADDED_PER_THOUSAND
                    ? -100.0
                    : Double.NaN;
        }
        return (off.get(i).harmed() - run.harmed()) * 100.0 / avoidable;
    }

    /** The mean share removed over the seeds that had avoidable failures, NaN when none had. */
    public double removedPercent() {
        double sum = 0;
        int n = 0;
        for (int i = 0; i < runs.size(); i++) {
            double r = removedPercent(i);
            if (!Double.isNaN(r)) {
                sum += r;
                n++;
            }
        }
        return n == 0 ? Double.NaN : sum / n;
    }

    /** Requests failed beyond detection off, in percentage points of the requests, averaged over the seeds. */
    public double addedFailurePoints() {
        double sum = 0;
        for (int i = 0; i < runs.size(); i++) {
            long added = runs.get(i).failed() - off.get(i).failed();
            if (added > 0 && runs.get(i).requests() > 0) {
                sum += added * 100.0 / runs.get(i).requests();
            }
        }
        return sum / runs.size();
    }

    /**
     * Requests failed beyond detection off per 1,000 requests of the run, the mean over the seeds of each seed's
     * difference (negative when the setting fails fewer, as nginx's retries of a 5xx on the next server do): what the
     * callers pay for what the setting does here, ejections and retries alike.
     */
    public double addedFailuresPerThousand() {
        double sum = 0;
        for (int i = 0; i < runs.size(); i++) {
            RunFigures r = runs.get(i);
            if (r.requests() > 0) {
                sum += (r.failed() - off.get(i).failed()) * 1000.0 / r.requests();
            }
        }
        return sum / runs.size();
    }

    /**
     * {@link #addedFailuresPerThousand()} as failed requests a day with this scenario's conditions and rate held all
     * day.
     */
    public double addedFailuresPerDay() {
        return addedFailuresPerThousand()
                / 1000.0
                * scenario.scenario().traffic().rps()
                * 86_400;
    }

    /** Requests failed or slow ({@link RunFigures#harmed()}) per 1,000 requests of the run, the mean over the seeds. */
    public double harmedPerThousand() {
        double sum = 0;
        for (RunFigures r : runs) {
            if (r.requests() > 0) {
                sum += r.harmed() * 1000.0 / r.requests();
            }
        }
        return sum / runs.size();
    }

    /** Whether this scenario's route retries failed attempts (istiod's default retries, a {@code retry_policy}). */
    public boolean retried() {
        var r = scenario.scenario().routing().retries();
        return r != null && r.numRetries() > 0;
    }

    /** Whether a request waited for a failed attempt in any run of this scenario (the setting's or detection off's). */
    public boolean delayed() {
        return runs.stream().anyMatch(r -> r.delayedRequests() > 0)
                || off.stream().anyMatch(r -> r.delayedRequests() > 0);
    }

    /**
     * Slow requests per 1,000 requests of the run, averaged over the seeds: answered only after waiting for a failed
     * attempt (a timeout); {@code ofOff} for detection off.
     */
    public double slowPerThousand(boolean ofOff) {
        List<RunFigures> list = ofOff ? off : runs;
        return list.stream()
                        .mapToDouble(r -> r.requests() == 0 ? 0 : r.delayedRequests() * 1000.0 / r.requests())
                        .sum()
                / list.size();
    }

    /** The time the slow requests of a run waited in all, in seconds, averaged over the seeds. */
    public double waitSeconds() {
        return runs.stream().mapToLong(RunFigures::delayNanos).sum() / 1e9 / runs.size();
    }

    /** Failed attempts to hosts in percent of the attempts (the whole run), averaged over the seeds. */
    public double upstreamFailedPercent() {
        return runs.stream().mapToDouble(RunFigures::upstreamFailedPercent).sum() / runs.size();
    }

    /** False ejections per seed, averaged. */
    public double falseEjections() {
        return runs.stream().mapToLong(RunFigures::falseEjections).sum() / (double) runs.size();
    }

    /** False ejections per day with this scenario's conditions held all day (per run, scaled to 86,400 s). */
    public double falseEjectionsPerDay() {
        return falseEjections() * 86_400e9 / scenario.scenario().durationNanos();
    }

    /** The seeds (counted) with at least one false ejection. */
    public long seedsWithFalseEjections() {
        return runs.stream().filter(r -> r.falseEjections() > 0).count();
    }

    /** Detections the cap refused per seed, averaged. */
    public double overflows() {
        return runs.stream().mapToLong(RunFigures::overflows).sum() / (double) runs.size();
    }

    /** Healthy host-seconds ejected per seed, averaged. */
    public double healthyEjectedSeconds() {
        return runs.stream().mapToLong(RunFigures::healthyEjectedNanos).sum() / 1e9 / runs.size();
    }

    public int maxEjectedAtOnce() {
        return runs.stream().mapToInt(RunFigures::maxEjectedAtOnce).max().orElse(0);
    }

    /** Panic seconds per seed, averaged. */
    public double panicSeconds() {
        return runs.stream().mapToLong(RunFigures::panicNanos).sum() / 1e9 / runs.size();
    }

    /** Failed percent during the fault, averaged over the seeds; {@code off} for detection off. */
    public double failedPercentDuringFault(boolean ofOff) {
        List<RunFigures> list = ofOff ? off : runs;
        return list.stream().mapToDouble(RunFigures::failedPercentDuringFault).sum() / list.size();
    }

    /** Mean time to detect in seconds over the seeds that detected, or NaN when none did. */
    public double detectSeconds() {
        return runs.stream()
                        .filter(r -> r.detectNanos() >= 0)
                        .mapToLong(RunFigures::detectNanos)
                        .average()
                        .orElse(Double.NaN)
                / 1e9;
    }

    /** Mean time to return in seconds over the seeds that ejected a failing host, or NaN when none did. */
    public double returnSeconds() {
        return runs.stream()
                        .filter(r -> r.detectNanos() >= 0)
                        .mapToLong(RunFigures::returnNanos)
                        .average()
                        .orElse(Double.NaN)
                / 1e9;
    }
}
