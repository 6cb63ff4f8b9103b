package dev.outlierlab.config.istio;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.Wording;
import dev.outlierlab.config.kube.Manifests;
import dev.outlierlab.config.yaml.Located;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Which control plane turns a DestinationRule into Envoy clusters: istiod (pilot's {@code applyOutlierDetection})
 * or kgateway, whose DestinationRule plugin translates outlier detection almost as istiod does (see
 * {@link IstioOutlierTranslator}). {@code --controller istiod|kgateway} chooses; without it a file whose Gateway
 * names kgateway's class is kgateway's ({@link #fromFile}), otherwise istiod is assumed, and the report says which
 * and why.
 */
public enum DestinationRuleController {
    ISTIOD,
    KGATEWAY;

    /** The option's value: {@code istiod} or {@code kgateway}; null when the option is not given. */
    public static DestinationRuleController parse(String value, String option) {
        if (value == null) {
            return null;
        }
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "istiod" -> ISTIOD;
            case "kgateway" -> KGATEWAY;
            default ->
                throw new InputException(option + ": \""
                        + Wording.printable(value.length() > 40 ? value.substring(0, 40) + "..." : value)
                        + "\" is not allowed; expected istiod or kgateway (the "
                        + "control plane that translates the file's DestinationRules)");
        };
    }

    /** The option's spelling of this controller. */
    public String optionValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * kgateway when a Gateway (gateway.networking.k8s.io) in the resources has a {@code gatewayClassName} naming
     * kgateway; istiod otherwise.
     */
    public static DestinationRuleController fromFile(List<Manifests.Resource> resources) {
        for (Manifests.Resource r : resources) {
            if ("Gateway".equals(r.kind())
                    && r.apiVersion() != null
                    && r.apiVersion().startsWith("gateway.networking.k8s.io")
                    && r.get("spec") != null
                    && r.get("spec").value() instanceof Map<?, ?> spec
                    && spec.get("gatewayClassName") instanceof Located c
                    && String.valueOf(c.value()).toLowerCase(Locale.ROOT).contains("kgateway")) {
                return KGATEWAY;
            }
        }
        return ISTIOD;
    }
}
