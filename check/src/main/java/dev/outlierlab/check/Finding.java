package dev.outlierlab.check;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One thing {@code check} found: which rule, how bad, about which cluster, in words, the numbers behind it,
 * a suggested fix as a YAML snippet in the file's own dialect (null when there is none), and where.
 *
 * @param numbers named values in a fixed order (Long, Double, Boolean or String)
 */
public record Finding(
        Rule rule,
        Severity severity,
        String target,
        String message,
        Map<String, Object> numbers,
        String fix,
        String file,
        int line) {

    public Finding {
        numbers = Collections.unmodifiableMap(new LinkedHashMap<>(numbers));
    }
}
