package dev.outlierlab.check;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One thing {@code check} found: which rule, how bad, about which cluster, in words, the numbers behind it,
 * a suggested fix as a YAML snippet in the file's own dialect (null when there is none), and where. A finding
 * about the file rather than a cluster (nothing to check, fields read past) has an empty {@code target}.
 *
 * @param numbers       named values in a fixed order (Long, Double, Boolean or String)
 * @param alsoAppliesTo other clusters the same finding holds for, from the same lines (a DestinationRule's
 *                      subsets that inherit its outlierDetection): said once, listing where it applies
 */
public record Finding(
        CheckRule rule,
        Severity severity,
        String target,
        String message,
        Map<String, Object> numbers,
        String fix,
        String file,
        int line,
        List<String> alsoAppliesTo) {

    public Finding {
        numbers = Collections.unmodifiableMap(new LinkedHashMap<>(numbers));
        alsoAppliesTo = List.copyOf(alsoAppliesTo);
    }

    /** A finding about the file itself, not one of its clusters. */
    static Finding aboutFile(CheckRule rule, Severity severity, String message, String file, int line) {
        return new Finding(rule, severity, "", message, Map.of(), null, file, line, List.of());
    }

    /** Everything but the cluster: two findings with one key say the same thing from the same place. */
    record Key(
            CheckRule rule,
            Severity severity,
            String message,
            Map<String, Object> numbers,
            String fix,
            String file,
            int line) {}

    Key key() {
        return new Key(rule, severity, message, numbers, fix, file, line);
    }

    Finding alsoFor(Collection<String> otherTargets) {
        List<String> more = new ArrayList<>(alsoAppliesTo);
        more.addAll(otherTargets);
        return new Finding(rule, severity, target, message, numbers, fix, file, line, more);
    }
}
