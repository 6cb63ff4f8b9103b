package dev.outlierlab.check;

import java.util.List;

/** A profile's facet in {@code check}: the rules of its own that its findings name, listed in SARIF's rules. */
public interface CheckRules {
    List<CheckRule> rules();
}
