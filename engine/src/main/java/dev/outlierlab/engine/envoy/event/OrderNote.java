package dev.outlierlab.engine.envoy.event;

import java.util.List;

/**
 * Where Envoy's host order, which the lab does not reproduce, could have decided a tick differently. Envoy walks
 * its hosts in {@code absl::node_hash_map} order, which depends on pointer hashes and differs from process to
 * process; the lab walks them in list order.
 *
 * @param capContenders hosts of one tick's pass that competed for fewer places than they needed under the cap
 *                      (some ejected, some refused): in another order another of them could have been ejected;
 *                      empty if none
 * @param borderline    hosts whose success rate lies within rounding of the threshold: the mean depends on the
 *                      order Envoy sums the rates in, so whether they are outliers is unspecified; empty if none
 */
public record OrderNote(List<String> capContenders, List<String> borderline) {
    public OrderNote {
        capContenders = List.copyOf(capContenders);
        borderline = List.copyOf(borderline);
    }
}
