package dev.outlierlab.tune;

import java.util.List;

/**
 * A profile's facet in {@code tune --target}: the files its settings are deployed in, each a {@link Target}. A profile
 * without it has no target; {@code --target} takes the flags of every registered one.
 */
public interface TuneTargets {
    /** The profile's targets, the one its own scenarios tune first. */
    List<Target> targets();
}
