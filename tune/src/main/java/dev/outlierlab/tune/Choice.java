package dev.outlierlab.tune;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * How the search picks from its finalists: the ranking of candidates, their front of benefit against harm, the
 * recommendation and, when nothing with benefit meets every constraint, the best trade-off.
 */
final class Choice {
    private Choice() {}

    /**
     * The recommendation: the admissible finalist with the most benefit (then the least harm), or the current setting
     * when it is admissible, has some benefit and nothing admissible beats it. When no finalist that removes anything
     * meets every constraint, the best trade-off ({@link #tradeOff}), never a setting that removes nothing while
     * another removes something, unless everything that removes something fails more requests than detection off
     * where nothing should be ejected, more per 1,000 there than it spares per 1,000 in any should-eject scenario
     * against the admissible setting that harms least ({@link #harmsLeast}): then that one.
     */
    static Evaluation choose(List<Evaluation> finals, Evaluation current) {
        Evaluation best = finals.stream()
                .filter(e -> e.admissible() && e.benefitPercent() > 0)
                .sorted(RANKING)
                .findFirst()
                .orElse(null);
        if (current.admissible()
                && current.benefitPercent() > 0
                && (best == null || !(best.benefitPercent() > current.benefitPercent()))) {
            return current;
        }
        if (best != null) {
            return best;
        }
        Evaluation trade = tradeOff(finals);
        if (trade != null && trade.addsFailuresWhereNoneShould()) {
            Evaluation safe = harmsLeast(finals, current);
            if (safe != null
                    && trade.addedFailuresPerThousand() > spared(trade, safe).perThousand()) {
                return safe;
            }
        }
        return trade != null
                ? trade
                : finals.stream().sorted(RANKING).findFirst().orElse(current);
    }

    /**
     * The admissible setting that harms least (the current one when nothing admissible beats it), or null when none
     * is admissible: the recommendation when everything that removes something fails more requests than detection
     * off where nothing should be ejected than it spares where a host fails. nginx, HAProxy and Caddy answer 502 or 503 when every server is out, so a
     * setting that catches a timing-out server by counting every error empties the upstream in a shared outage; a
     * setting that stops that, and says what it leaves uncaught, is better advice than one whose cost the callers pay
     * in every such outage.
     */
    static Evaluation harmsLeast(List<Evaluation> finals, Evaluation current) {
        List<Evaluation> all = new ArrayList<>(finals);
        if (!all.contains(current)) {
            all.add(current);
        }
        return all.stream()
                .filter(Evaluation::admissible)
                .sorted(RANKING)
                .findFirst()
                .orElse(null);
    }

    /**
     * The most requests per 1,000 (failed or slow) a setting spares its callers in a should-eject scenario against
     * another, and where: what catching the failing host buys, in the unit of what it costs where nothing should be
     * ejected ({@link Evaluation#addedFailuresPerThousand()}).
     */
    record Spared(String scenario, double perThousand) {}

    static Spared spared(Evaluation catches, Evaluation other) {
        Spared most = new Spared(null, 0);
        for (ScenarioScore s : catches.scores()) {
            ScenarioScore o = other.score(s.scenario().name());
            if (s.scenario().expect() == Expectation.EJECT && o != null) {
                double d = o.harmedPerThousand() - s.harmedPerThousand();
                if (d > most.perThousand()) {
                    most = new Spared(s.scenario().name(), d);
                }
            }
        }
        return most;
    }

    /**
     * When the recommendation is admissible and removes nothing because everything that removes something fails more
     * requests than detection off where nothing should be ejected, the one of those on the front that removes the
     * most; otherwise null.
     */
    static Evaluation boughtWithFailures(Evaluation recommended, List<Evaluation> front) {
        if (!recommended.admissible() || recommended.benefitPercent() > 0) {
            return null;
        }
        Evaluation most = null;
        for (Evaluation e : front) {
            if (e.benefitPercent() > 0
                    && e.addsFailuresWhereNoneShould()
                    && (most == null || e.benefitPercent() > most.benefitPercent())) {
                most = e;
            }
        }
        return most;
    }

    /**
     * The best trade-off when nothing with benefit meets every constraint: among the finalists that {@code check}
     * accepts and that remove something, those that fail no more requests than detection off where nothing should be
     * ejected come first (a false ejection the callers do not feel over one that answers them 502); on their front of
     * benefit against harm, the least harm among those with at least half the front's best benefit (a knee: most of
     * what can be had for the least it costs). When every one adds failures there, the fewest added among those with
     * at least half the best benefit. Null when none removes anything.
     */
    static Evaluation tradeOff(List<Evaluation> finals) {
        List<Evaluation> deployable = finals.stream()
                .filter(e -> !e.undeployable() && e.benefitPercent() > 0)
                .toList();
        List<Evaluation> harmless = deployable.stream()
                .filter(e -> !e.addsFailuresWhereNoneShould())
                .toList();
        if (harmless.isEmpty() && !deployable.isEmpty()) {
            double top = deployable.stream()
                    .mapToDouble(Evaluation::benefitPercent)
                    .max()
                    .orElse(0);
            return deployable.stream()
                    .filter(e -> e.benefitPercent() >= top / 2)
                    .min(Comparator.comparingDouble(Evaluation::addedFailuresPerThousand)
                            .thenComparingDouble(Evaluation::harm)
                            .thenComparing(Evaluation::benefitPercent, Comparator.reverseOrder())
                            .thenComparingInt(Evaluation::candidate))
                    .orElse(null);
        }
        List<Evaluation> front = pareto(harmless);
        if (front.isEmpty()) {
            return null;
        }
        double top = front.get(0).benefitPercent();
        return front.stream()
                .filter(e -> e.benefitPercent() >= top / 2)
                .min(Comparator.comparingDouble(Evaluation::harm)
                        .thenComparing(Evaluation::benefitPercent, Comparator.reverseOrder())
                        .thenComparingInt(Evaluation::candidate))
                .orElse(front.get(0));
    }

    /**
     * Admissible first, then the ones that fail no more requests than detection off where nothing should be ejected,
     * fewer constraints broken, more benefit, less harm, the earlier candidate.
     */
    static final Comparator<Evaluation> RANKING = Comparator.comparing((Evaluation e) -> !e.admissible())
            .thenComparing(Evaluation::addsFailuresWhereNoneShould)
            .thenComparing(Evaluation::violations, Comparator.comparingInt(List::size))
            .thenComparing(Evaluation::benefitPercent, Comparator.reverseOrder())
            .thenComparingDouble(Evaluation::harm)
            .thenComparingInt(Evaluation::candidate);

    /** Candidates no other beats on both benefit (higher) and harm (lower), best benefit first. */
    static List<Evaluation> pareto(List<Evaluation> all) {
        List<Evaluation> front = new ArrayList<>();
        for (Evaluation e : all) {
            boolean dominated = false;
            for (Evaluation o : all) {
                if (o != e
                        && o.benefitPercent() >= e.benefitPercent()
                        && o.harm() <= e.harm()
                        && (o.benefitPercent() > e.benefitPercent()
                                || o.harm() < e.harm()
                                || o.candidate() < e.candidate())) {
                    dominated = true;
                    break;
                }
            }
            if (!dominated) {
                front.add(e);
            }
        }
        front.sort(Comparator.comparing(Evaluation::benefitPercent, Comparator.reverseOrder())
                .thenComparingDouble(Evaluation::harm)
                .thenComparingInt(Evaluation::candidate));
        return front;
    }

    /** The final front: at most {@link Tuner#FRONT_ROWS}, always with the recommendation, spread over the benefit range. */
    static List<Evaluation> front(List<Evaluation> finals, Evaluation best) {
        List<Evaluation> front = pareto(finals);
        if (!front.contains(best)) {
            front.add(0, best);
        }
        if (front.size() <= Tuner.FRONT_ROWS) {
            return front;
        }
        List<Evaluation> kept = new ArrayList<>();
        for (int i = 0; i < Tuner.FRONT_ROWS; i++) {
            Evaluation e = front.get((int) Math.round(i * (front.size() - 1) / (double) (Tuner.FRONT_ROWS - 1)));
            if (!kept.contains(e)) {
                kept.add(e);
            }
        }
        if (!kept.contains(best)) {
            kept.set(kept.size() - 1, best);
            kept.sort(Comparator.comparing(Evaluation::benefitPercent, Comparator.reverseOrder())
                    .thenComparingDouble(Evaluation::harm)
                    .thenComparingInt(Evaluation::candidate));
        }
        return kept;
    }
}
