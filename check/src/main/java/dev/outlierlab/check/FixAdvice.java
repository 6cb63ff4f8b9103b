package dev.outlierlab.check;

import dev.outlierlab.config.istio.DestinationRuleController;
import dev.outlierlab.config.istio.IstioPolicy;
import dev.outlierlab.config.scenario.ScenarioWriter;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a report says a fix for the input it was given: in the input's own fields ({@link FixStyle}, the same
 * vocabulary {@code check} writes its fix snippets in) and, where no field of the input can make the change, with
 * the patch that can ({@link EnvoyFilterPatch} for a DestinationRule). {@code run}, {@code sweep}, {@code tune}
 * and the browser lab all say their fixes through it.
 *
 * @param style the input's dialect
 * @param patch the EnvoyFilter's match for the input's cluster, or null when the input is not a DestinationRule
 *              (or when it is not known which cluster)
 */
public record FixAdvice(FixStyle style, EnvoyFilterPatch patch) {
    /** Envoy's own field names (a scenario or an Envoy cluster). */
    public static final FixAdvice ENVOY = new FixAdvice(FixStyle.ENVOY, null);

    /** The advice for a DestinationRule's cluster, as the control plane that translates it reads the rule. */
    public static FixAdvice of(IstioPolicy policy, DestinationRuleController controller) {
        return controller == DestinationRuleController.KGATEWAY
                ? new FixAdvice(FixStyle.KGATEWAY, null)
                : new FixAdvice(FixStyle.ISTIO, EnvoyFilterPatch.of(policy));
    }

    /** Whether the input's fields are the ones its proxy reads (no translator between), so a fix says them as is. */
    public boolean untranslated() {
        return style.translatedBy() == null;
    }

    /**
     * The fix as labelled report lines: {@code fix} with the alternatives in the input's fields, then, when some
     * field cannot be set there, {@code patch} with the EnvoyFilter that sets it (or a sentence naming what can).
     *
     * @param current the settings in effect, for the thresholds that make a translator enforce a detector
     */
    public String lines(List<List<FixStyle.Change>> alternatives, OutlierDetectionConfig current) {
        FixStyle.Phrase phrase = style.phrase(alternatives, values(current));
        StringBuilder out = new StringBuilder();
        out.append(line("fix", phrase.line()));
        if (!phrase.cannot().isEmpty()) {
            List<String> fields = new ArrayList<>();
            phrase.cannot().forEach(c -> fields.add(c.envoyPath()));
            if (style.patchedByEnvoyFilter() && patch != null) {
                out.append(line(
                        "patch",
                        "an EnvoyFilter can set " + String.join(", ", fields) + " on the cluster"
                                + " istiod makes (kubectl apply -f):"));
                for (String l : patch.render(phrase.cannot()).split("\n")) {
                    out.append(String.format(Locale.ROOT, "  %-13s %s%n", "", l));
                }
            } else {
                out.append(line("patch", patchSentence()));
            }
        }
        return out.toString();
    }

    /**
     * A sentence said in the input's own fields: each Envoy field name in {@code text} that the dialect has a field
     * for becomes that field's path ({@code max_ejection_percent 10} becomes {@code
     * trafficPolicy.outlierDetection.maxEjectionPercent 10} for a DestinationRule), an enforcement the dialect sets
     * by itself becomes its threshold ({@code enforcing_consecutive_gateway_failure 100} becomes {@code
     * trafficPolicy.outlierDetection.consecutiveGatewayErrors above 0 (so istiod enforces it: 100)}). Names no
     * field of the dialect sets stay Envoy's, as the only names there are for them. Unchanged for Envoy's own files.
     */
    public String say(String text) {
        return say(text, false);
    }

    /**
     * As {@link #say(String)}, and the first mention of a field no field of the dialect sets is marked so ({@code
     * always_eject_one_host (which no DestinationRule field sets)}), unless the text says it already: for prose
     * that names Envoy's fields without saying whether the input can set them (check's findings, tune's why).
     */
    public String sayMarked(String text) {
        return say(text, true);
    }

    private String say(String text, boolean mark) {
        if (untranslated() || text == null) {
            return text;
        }
        String out = text;
        for (String envoyPath : SAID) {
            String field = envoyPath.substring(envoyPath.indexOf('.') + 1);
            String path = style.fieldPath(envoyPath);
            String threshold = style.enforcedBy(envoyPath);
            if (path == null && threshold == null) {
                out = mark ? unsettable(out, field) : out;
                continue;
            }
            Matcher m = Pattern.compile(
                            // not after "by ": there the name is the detector's (its stats and events say it so)
                            "(?<![\\w.])(?<!by )(?:outlier_detection\\.|common_lb_config\\.)?" + Pattern.quote(field)
                                    + "(?![\\w])(?: (\\d+)( %)?)?")
                    .matcher(out);
            StringBuilder sb = new StringBuilder();
            while (m.find()) {
                String value = m.group(1);
                String said;
                if (path != null) {
                    said = path + (value == null ? "" : " " + value) + (m.group(2) == null ? "" : m.group(2));
                } else {
                    said = style.fieldPath(threshold)
                            + ("0".equals(value)
                                    ? " 0 or unset (" + style.translatedBy() + " enforces it only above 0)"
                                    : " above 0 (so " + style.translatedBy() + " enforces it"
                                            + (value == null ? "" : ": " + value) + ")");
                }
                m.appendReplacement(sb, Matcher.quoteReplacement(said));
            }
            m.appendTail(sb);
            out = sb.toString();
        }
        return out;
    }

    /** The first mention of a field no field of the dialect sets, marked so, unless the text says it already. */
    private String unsettable(String text, String field) {
        String why = style.whyCannot(field);
        if (text.contains(why)) {
            return text;
        }
        Matcher m = Pattern.compile(
                        "(?<![\\w.])(?:outlier_detection\\.|common_lb_config\\.)?" + Pattern.quote(field) + "(?![\\w])")
                .matcher(text);
        return m.find() ? text.substring(0, m.end()) + " (which " + why + ")" + text.substring(m.end()) : text;
    }

    /** The Envoy paths {@link #say} rewrites, longest first so that no name is rewritten inside another. */
    private static final List<String> SAID = said();

    private static List<String> said() {
        List<String> out = new ArrayList<>();
        for (OutlierSetting s : OutlierSetting.values()) {
            if (s.envoyName().contains("_")) {
                out.add("outlier_detection." + s.envoyName());
            }
        }
        out.add("common_lb_config.healthy_panic_threshold");
        out.sort(Comparator.comparingInt(String::length).reversed());
        return List.copyOf(out);
    }

    private String patchSentence() {
        return switch (style) {
            case ISTIO, FLAGGER -> "an EnvoyFilter patch on the service's outbound cluster can set it";
            case ENVOY_GATEWAY -> "an EnvoyPatchPolicy can set it";
            case KUMA -> "a MeshProxyPatch can set it";
            default -> "only the Envoy cluster itself can set it";
        };
    }

    /** Envoy path -> the value in effect, as a file would write it. */
    public static Map<String, Object> values(OutlierDetectionConfig config) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (config != null) {
            for (OutlierSetting s : OutlierSetting.values()) {
                out.put("outlier_detection." + s.envoyName(), ScenarioWriter.settingValue(s, config.get(s)));
            }
        }
        return out;
    }

    private static String line(String label, String text) {
        return String.format(Locale.ROOT, "  %-13s %s%n", label, text);
    }
}
