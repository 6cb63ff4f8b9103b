package dev.outlierlab.config.envoy;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.Wording;
import dev.outlierlab.config.yaml.Located;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A misspelt outlier-detection key ({@code outlier_detecton:} in an Envoy cluster, {@code outlierDetecton:} in
 * a DestinationRule's traffic policy) is an error with the right name: the readers would otherwise read past it
 * as an unknown field, and the cluster would silently have no outlier detection at all (Envoy itself rejects
 * the unknown field of a cluster; Kubernetes prunes it from a DestinationRule).
 */
public final class OutlierKeyTypos {
    private OutlierKeyTypos() {}

    /**
     * Refuses a key of {@code map} that is within two edits of one of {@code correct} without being one.
     *
     * @param path where the mapping is, for the message ({@code spec.trafficPolicy})
     */
    public static void check(Map<String, Located> map, String path, List<String> correct) {
        for (Map.Entry<String, Located> e : map.entrySet()) {
            String key = e.getKey();
            if (correct.contains(key)) {
                continue;
            }
            String nearest = null;
            int best = 3;
            for (String right : correct) {
                int d = Wording.distance(key.toLowerCase(Locale.ROOT), right.toLowerCase(Locale.ROOT));
                if (d < best) {
                    best = d;
                    nearest = right;
                }
            }
            if (nearest != null) {
                throw new InputException(e.getValue().origin() + ": unknown field '"
                        + (path.isEmpty() ? "" : path + ".") + key + "'; did you mean " + nearest + "? As written "
                        + "the cluster has no outlier detection");
            }
        }
    }
}
