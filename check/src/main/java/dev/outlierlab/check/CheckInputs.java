package dev.outlierlab.check;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.envoy.EnvoyConfig;
import dev.outlierlab.config.envoy.EnvoyConfigReader;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads one file for {@code check} and says what it holds: a gateway configuration (a top-level
 * {@code gateway:} section, {@link GatewayTargets}), Kubernetes manifests (DestinationRules and the
 * other resources {@link ManifestTargets} translates; the rest skipped), or Envoy configuration (a cluster, a
 * list, a bootstrap, a CDS response, an admin config dump). A file with nothing to check is a note, not an
 * error, so that CI can run over a whole directory; a template ({@code {{ ... }}}) is refused with the advice
 * to render it first (a note when found while reading a directory).
 */
public final class CheckInputs {
    private static final Pattern TEMPLATE = Pattern.compile("\\{\\{-?\\s*[^}]*\\}\\}");
    private static final Pattern MANIFEST = Pattern.compile(
            "(?m)^(-\\s+)?(apiVersion:\\s*\\S|kind:\\s*[\"']?[A-Z]|type:\\s*[\"']?Mesh[A-Z])");

    /** What one file gives {@code check}: its clusters, and findings about the file itself. */
    public record Loaded(List<CheckTarget> targets, List<Finding> fileFindings) {
        public Loaded {
            targets = List.copyOf(targets);
            fileFindings = List.copyOf(fileFindings);
        }
    }

    private CheckInputs() {
    }

    /**
     * Reads a file's text.
     *
     * @param source        the name to report (a path, or {@code -} for standard input)
     * @param port          Istio: the port whose settings to check, or null
     * @param inDirectory   whether the file was found by reading a directory (a template is then a note)
     * @throws InputException when the file cannot be read as any of these
     */
    public static Loaded read(String text, String source, Integer port, boolean inDirectory) {
        Matcher template = TEMPLATE.matcher(text);
        if (template.find()) {
            int line = (int) text.substring(0, template.start()).chars().filter(ch -> ch == '\n').count() + 1;
            String message = "the file is a template (" + template.group() + " at line " + line + "), not what a "
                    + "cluster gets: render it first, for example with `helm template`, and check the output";
            if (!inDirectory) {
                throw new InputException(source + ":" + line + ": " + message);
            }
            return new Loaded(List.of(), List.of(Finding.aboutFile(Rule.NOTHING_TO_CHECK, Severity.NOTE, message, source,
                    line)));
        }
        if (GatewayTargets.isGateway(text)) {
            return GatewayTargets.read(text, source);
        }
        if (MANIFEST.matcher(text).find()) {
            return ManifestTargets.read(text, source, port);
        }
        EnvoyConfig config = EnvoyConfigReader.read(text, source);
        List<Finding> file = new ArrayList<>();
        for (String note : config.notes()) {
            file.add(Finding.aboutFile(Rule.NOT_MODELLED, Severity.NOTE, note, source, lineOf(note)));
        }
        if (config.clusters().isEmpty()) {
            file.add(Finding.aboutFile(Rule.NOTHING_TO_CHECK, Severity.NOTE, "the file holds no clusters (an empty "
                    + describe(config.kind()) + "), so there is no outlier detection to check", source, 1));
        }
        return new Loaded(CheckTargets.fromEnvoy(config), file);
    }

    /** The line a reader's note starts with ("line 12: ..."), else 1. */
    static int lineOf(String note) {
        Matcher m = Pattern.compile("^line ([0-9]+):").matcher(note);
        return m.find() ? Integer.parseInt(m.group(1)) : 1;
    }

    private static String describe(EnvoyConfig.Kind kind) {
        return switch (kind) {
            case CLUSTER -> "cluster";
            case CLUSTER_LIST -> "list";
            case BOOTSTRAP -> "bootstrap";
            case DISCOVERY_RESPONSE -> "DiscoveryResponse";
            case CONFIG_DUMP -> "config dump";
        };
    }
}
