package dev.outlierlab.tune;

import java.util.List;

/**
 * What {@code tune} found: the request, the current settings' scorecard, the Pareto front of benefit against harm
 * (at most eight, best benefit first), the one recommendation with its file and the diff from the current one, why,
 * what no setting can catch here, which detectors one caller's traffic lets run, and the size of the search.
 *
 * @param recommendationFindings {@code check}'s findings on the recommended file, one line each ("warning: ...")
 * @param candidates             candidates screened
 * @param runs                   simulations run (baselines included)
 */
public record TuneResult(
        TuneRequest request,
        Evaluation current,
        List<Evaluation> front,
        Evaluation recommended,
        String diff,
        String why,
        List<String> cannotCatch,
        List<String> detectors,
        List<String> recommendationFindings,
        int candidates,
        long runs,
        DeployableFile.Spliced deployable,
        BreakingPoints breaks,
        TuneWords words) {

    /**
     * This result with the recommendation spliced into the {@code --from} file's text ({@link DeployableFile}): the
     * diff is then against that file; when splicing is not possible the lab's own file and diff stay, with why.
     */
    public TuneResult deployedInto(String original) {
        DeployableFile.Spliced s = request.target()
                .splice(
                        original,
                        request.current(),
                        recommended.setting(),
                        recommended.written(),
                        request.envoyVersion(),
                        request.name());
        String d = s.text() == null
                ? diff
                : LineDiff.diff(request.source(), original, request.source() + " (recommended)", s.text());
        return toBuilder().diff(d).deployable(s).build();
    }

    /** This result with the recommendation's breaking points. */
    TuneResult breakingAt(BreakingPoints points) {
        return toBuilder().breaks(points).build();
    }

    /** This result said in the words of {@code w} (a DestinationRule's EnvoyFilter matching the user's rule). */
    public TuneResult saidAs(TuneWords w) {
        return toBuilder().words(w).build();
    }

    /** The file to deploy: the user's own with the changes spliced in, else the lab's file of the target. */
    public String recommendedFile() {
        return deployable != null && deployable.text() != null
                ? deployable.text()
                : recommended.written().text();
    }

    /**
     * The first thing to read: whether the recommendation meets every constraint, is a trade-off with a cost, or
     * keeps settings that already work; null when it meets every constraint and changes something.
     */
    public String headline() {
        if (recommended.addsFailuresWhereNoneShould()) {
            return "No setting catches a failing host here without failing more requests than detection off where "
                    + "nothing should be ejected: the recommendation below is the best trade-off, and in "
                    + recommended.addedFailuresScenario() + " it fails "
                    + Evaluation.perThousand(recommended.addedFailuresPerThousand())
                    + " more requests per 1,000 than detection off ("
                    + Evaluation.aDay(recommended.addedFailuresPerDay()) + " a day at " + request.rps()
                    + " rps); what else it costs is said under Why.";
        }
        if (Choice.boughtWithFailures(recommended, front) != null) {
            return "Nothing the target can express catches a failing host here without failing more requests than "
                    + "detection off where nothing should be ejected: the recommendation below meets every constraint "
                    + "but takes no failing host out; what catching one would cost is said under Why.";
        }
        if (!recommended.admissible()) {
            return "No setting meets every constraint: the recommendation below is the best trade-off, and what it costs "
                    + "is said under Why.";
        }
        return null;
    }

    public TuneResult {
        front = List.copyOf(front);
        cannotCatch = List.copyOf(cannotCatch);
        detectors = List.copyOf(detectors);
        recommendationFindings = List.copyOf(recommendationFindings);
    }

    /** A builder without a spliced file or breaking points, in the words of the request's target. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from this one. */
    public Builder toBuilder() {
        return new Builder()
                .request(request)
                .current(current)
                .front(front)
                .recommended(recommended)
                .diff(diff)
                .why(why)
                .cannotCatch(cannotCatch)
                .detectors(detectors)
                .recommendationFindings(recommendationFindings)
                .candidates(candidates)
                .runs(runs)
                .deployable(deployable)
                .breaks(breaks)
                .words(words);
    }

    /** Collects the fields by name instead of by position; {@link #build()} validates them as the constructor does. */
    public static final class Builder {
        private TuneRequest request;
        private Evaluation current;
        private List<Evaluation> front;
        private Evaluation recommended;
        private String diff;
        private String why;
        private List<String> cannotCatch;
        private List<String> detectors;
        private List<String> recommendationFindings;
        private int candidates;
        private long runs;
        private DeployableFile.Spliced deployable;
        private BreakingPoints breaks;
        private TuneWords words;

        private Builder() {}

        public Builder request(TuneRequest value) {
            request = value;
            return this;
        }

        public Builder current(Evaluation value) {
            current = value;
            return this;
        }

        public Builder front(List<Evaluation> value) {
            front = value;
            return this;
        }

        public Builder recommended(Evaluation value) {
            recommended = value;
            return this;
        }

        public Builder diff(String value) {
            diff = value;
            return this;
        }

        public Builder why(String value) {
            why = value;
            return this;
        }

        public Builder cannotCatch(List<String> value) {
            cannotCatch = value;
            return this;
        }

        public Builder detectors(List<String> value) {
            detectors = value;
            return this;
        }

        public Builder recommendationFindings(List<String> value) {
            recommendationFindings = value;
            return this;
        }

        public Builder candidates(int value) {
            candidates = value;
            return this;
        }

        public Builder runs(long value) {
            runs = value;
            return this;
        }

        public Builder deployable(DeployableFile.Spliced value) {
            deployable = value;
            return this;
        }

        public Builder breaks(BreakingPoints value) {
            breaks = value;
            return this;
        }

        /** The words of the target (null: those of the request's target, the patch's match a placeholder). */
        public Builder words(TuneWords value) {
            words = value;
            return this;
        }

        public TuneResult build() {
            return new TuneResult(
                    request,
                    current,
                    front,
                    recommended,
                    diff,
                    why,
                    cannotCatch,
                    detectors,
                    recommendationFindings,
                    candidates,
                    runs,
                    deployable,
                    breaks,
                    words != null ? words : TuneWords.of(request, null));
        }
    }
}
