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

    public TuneResult(
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
            long runs) {
        this(
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
                null,
                null,
                TuneWords.of(request, null));
    }

    /** With the 12 fields before the words: the words of the request's target, the patch's match a placeholder. */
    public TuneResult(
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
            BreakingPoints breaks) {
        this(
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
                TuneWords.of(request, null));
    }

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
        return new TuneResult(
                request,
                current,
                front,
                recommended,
                d,
                why,
                cannotCatch,
                detectors,
                recommendationFindings,
                candidates,
                runs,
                s,
                breaks,
                words);
    }

    /** This result with the recommendation's breaking points. */
    TuneResult breakingAt(BreakingPoints points) {
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
                points,
                words);
    }

    /** This result said in the words of {@code w} (a DestinationRule's EnvoyFilter matching the user's rule). */
    public TuneResult saidAs(TuneWords w) {
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
                w);
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
}
