package dev.outlierlab.config.istio;

/**
 * Which control plane turns a DestinationRule into Envoy clusters: istiod (pilot's {@code applyOutlierDetection})
 * or kgateway, whose DestinationRule plugin translates outlier detection almost as istiod does (see
 * {@link IstioOutlierTranslator}). A file whose Gateway names kgateway's class is kgateway's; otherwise istiod
 * is assumed, and the report says which.
 */
public enum DestinationRuleController {
    ISTIOD,
    KGATEWAY
}
