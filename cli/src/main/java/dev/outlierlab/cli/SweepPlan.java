package dev.outlierlab.cli;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.engine.profile.Profiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The runs of a sweep: the axes of {@code --vary} and every combination of their values, each read as a scenario
 * (the base overrides and the combination's as {@code --set}) before any run, so that bad input and the work are
 * known first.
 */
final class SweepPlan {
    private SweepPlan() {}

    /** One {@code --vary KEY=V1,V2,...}: the key and its values. */
    record Axis(String key, List<String> values) {}

    /** One combination of the varied values, the scenario it gives and the --set overrides that give it. */
    record Planned(List<String> values, ScenarioReader.Profiled scenario, List<String> sets) {
        SweepRows rows() {
            return rowsOf(scenario);
        }
    }

    /**
     * The axes of {@code vary}; refused: a malformed one, an empty value, a gRPC setting that {@code --service-config}
     * fixes ({@code serviceConfig}, or null), and more than {@code maxRuns} combinations.
     */
    static List<Axis> axes(List<String> vary, Path serviceConfig, int maxRuns) {
        List<Axis> axes = new ArrayList<>();
        long combinations = 1;
        for (String v : vary) {
            int eq = v.indexOf('=');
            if (eq <= 0 || eq == v.length() - 1) {
                throw new InputException("--vary " + v
                        + ": expected KEY=V1,V2,..., e.g. --vary outlier_detection.max_ejection_percent=10,34,100");
            }
            List<String> values = List.of(v.substring(eq + 1).split(",", -1));
            if (values.stream().anyMatch(String::isBlank)) {
                throw new InputException("--vary " + v + ": a value is empty; separate values with single commas");
            }
            String key = v.substring(0, eq).trim();
            if (serviceConfig != null && (key.startsWith("grpc.") || key.startsWith("outlier_detection."))) {
                throw new InputException("--vary " + key + ": --service-config " + serviceConfig + " fixes gRPC's "
                        + "settings for every run; vary them in a profile: grpc scenario's grpc block instead");
            }
            axes.add(new Axis(key, values));
            combinations *= values.size();
            if (combinations > maxRuns) {
                throw new InputException("--vary: " + combinations + "+ combinations; at most " + maxRuns + " runs");
            }
        }
        return axes;
    }

    /**
     * Every combination of the axes' values in order (the last axis varies fastest), each resolved by
     * {@code resolve} from {@code baseSets} and its own overrides; all runs must have one profile with a sweep.
     */
    static List<Planned> plan(
            List<Axis> axes, List<String> baseSets, Function<List<String>, ScenarioReader.Profiled> resolve) {
        List<Planned> planned = new ArrayList<>();
        plan(axes, baseSets, resolve, 0, new ArrayList<>(), planned);
        return planned;
    }

    private static void plan(
            List<Axis> axes,
            List<String> baseSets,
            Function<List<String>, ScenarioReader.Profiled> resolve,
            int depth,
            List<String> chosen,
            List<Planned> planned) {
        if (depth == axes.size()) {
            List<String> sets = new ArrayList<>(baseSets);
            for (int i = 0; i < axes.size(); i++) {
                sets.add(axes.get(i).key() + "=" + chosen.get(i));
            }
            ScenarioReader.Profiled loaded;
            try {
                loaded = resolve.apply(sets);
            } catch (InputException e) {
                throw asVary(e, axes);
            }
            rowsOf(loaded);
            if (!planned.isEmpty() && !planned.get(0).scenario().name().equals(loaded.name())) {
                throw new InputException("--vary: every run of a sweep must have the same profile; these runs have "
                        + planned.get(0).scenario().name() + " and " + loaded.name());
            }
            planned.add(new Planned(List.copyOf(chosen), loaded, List.copyOf(sets)));
            return;
        }
        for (String value : axes.get(depth).values()) {
            chosen.add(value);
            plan(axes, baseSets, resolve, depth + 1, chosen, planned);
            chosen.remove(chosen.size() - 1);
        }
    }

    /** A bad value of a --vary axis is reported as the --vary the user wrote, not as the --set it became. */
    private static InputException asVary(InputException e, List<Axis> axes) {
        for (Axis axis : axes) {
            String prefix = "--set " + axis.key();
            if (e.headline().startsWith(prefix)) {
                return new InputException(
                        "--vary " + axis.key() + e.headline().substring(prefix.length()), e.details());
            }
        }
        return e;
    }

    /** The profile's sweep facet; a profile without one is refused. */
    static SweepRows rowsOf(ScenarioReader.Profiled loaded) {
        return loaded.profile()
                .facet(SweepRows.class)
                .orElseThrow(() -> new InputException("sweep: profile " + loaded.name() + " has no sweep; sweep takes "
                        + Profiles.namesWith(SweepRows.class)));
    }
}
