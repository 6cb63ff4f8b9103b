package dev.outlierlab.check;

import dev.outlierlab.engine.envoy.OutlierDetectionConfig;

/**
 * One group of findings about a cluster that has outlier detection and at least one enforced detector. The
 * checks run in the order of {@link ConfigChecker#CHECKS}; a new finding is a new {@link Rule} and a new entry
 * there.
 */
@FunctionalInterface
interface TargetCheck {
    /**
     * Adds this check's findings for one cluster.
     *
     * @param c     the effective settings (Envoy's defaults applied)
     * @param hosts the cluster size, or null when neither the file nor {@code --hosts} says
     * @param rps   requests per second to the whole cluster, or null
     */
    void check(OutlierDetectionConfig c, Integer hosts, Long rps, FindingSink sink);
}
