package dev.outlierlab.config.scenario;

import dev.outlierlab.config.Wording;
import dev.outlierlab.config.istio.IstioFields;

/** The "did you mean" for an Istio field name given where Envoy's names are read. */
final class IstioNames {
    private IstioNames() {}

    /**
     * The hint for an unknown key under {@code outlier_detection}: the Envoy field an Istio name (or a near miss of
     * one) sets, else the nearest Envoy name.
     *
     * @param near the nearest Envoy name, or null
     * @param set  whether the key came from {@code --set}, where {@code --istio} reads Istio's names
     */
    static String hint(String key, String near, boolean set) {
        String istio = IstioFields.ENVOY_PATH_OF.containsKey(key)
                ? key
                : Wording.nearest(key, IstioFields.ENVOY_PATH_OF.keySet());
        if (istio == null || (near != null && Wording.distance(key, near) <= Wording.distance(key, istio))) {
            return near == null ? "" : " (did you mean '" + near + "'?)";
        }
        String envoy = IstioFields.envoyKeyOf(istio);
        String as = envoy.startsWith("cluster.") ? envoy : "outlier_detection." + envoy;
        return " (did you mean '" + as + "'? It is Envoy's name for Istio's " + istio
                + (set ? "; with --istio FILE, --set " + istio + "=... sets the DestinationRule's own field" : "")
                + ")";
    }
}
