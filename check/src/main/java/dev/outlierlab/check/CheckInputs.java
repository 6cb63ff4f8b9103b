package dev.outlierlab.check;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.envoy.EnvoyConfig;
import dev.outlierlab.config.envoy.EnvoyConfigReader;
import dev.outlierlab.config.istio.DestinationRuleController;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.config.yaml.YamlDocuments;
import dev.outlierlab.config.yaml.YamlTree;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
    private static final Pattern MANIFEST =
            Pattern.compile("(?m)^(-\\s+)?(apiVersion:\\s*\\S|kind:\\s*[\"']?[A-Z]|type:\\s*[\"']?Mesh[A-Z])"
                    // Envoy Gateway's translator inputs may indent their resource lists under the top-level keys
                    + "|^[ \\t]+- apiVersion:\\s*\\S+/v[0-9]");

    /**
     * What one file gives {@code check}: its clusters, findings about the file itself, and the file's name as
     * given ({@code -} for standard input; null until the caller names it with {@link #from}).
     */
    public record Loaded(List<CheckTarget> targets, List<Finding> fileFindings, String source) {
        public Loaded {
            targets = List.copyOf(targets);
            fileFindings = List.copyOf(fileFindings);
        }

        public Loaded(List<CheckTarget> targets, List<Finding> fileFindings) {
            this(targets, fileFindings, null);
        }

        /** The same, read from {@code name}. */
        public Loaded from(String name) {
            return new Loaded(targets, fileFindings, name);
        }

        /** Whether this is a file that could not be read ({@link #unreadable}): nothing in it was checked. */
        public boolean notRead() {
            return targets.isEmpty()
                    && fileFindings.size() == 1
                    && fileFindings.get(0).rule() == Rule.FILE_NOT_READ;
        }
    }

    private CheckInputs() {}

    /**
     * Reads a file's text.
     *
     * @param source        the name to report (a path, or {@code -} for standard input)
     * @param port          Istio: the port whose settings to check, or null
     * @param inDirectory   whether the file was found by reading a directory (a template is then a note)
     * @throws InputException when the file cannot be read as any of these
     */
    public static Loaded read(String text, String source, Integer port, boolean inDirectory) {
        return read(text, source, port, inDirectory, null);
    }

    /**
     * Reads a file's text, its DestinationRules translated by {@code controller} ({@code --controller}); null: by
     * the controller the file names (kgateway when its Gateway is kgateway's, else istiod).
     */
    public static Loaded read(
            String text, String source, Integer port, boolean inDirectory, DestinationRuleController controller) {
        int[] at = templateAt(text, source);
        if (at != null) {
            int line = at[0];
            String message = "the file is a template (" + text.substring(at[1], at[2]) + " at line " + line + "), not "
                    + "what a cluster gets: render it first, for example with `helm template`, and check the output";
            if (!inDirectory) {
                throw new InputException(source + ":" + line + ": " + message);
            }
            return new Loaded(
                    List.of(), List.of(Finding.aboutFile(Rule.NOTHING_TO_CHECK, Severity.NOTE, message, source, line)));
        }
        if (GatewayTargets.hasGatewaySection(text)) {
            return GatewayTargets.read(text, source);
        }
        if (MANIFEST.matcher(text).find()) {
            return ManifestTargets.read(text, source, port, controller);
        }
        EnvoyConfig config;
        try {
            config = EnvoyConfigReader.read(text, source);
        } catch (InputException e) {
            if (e.getMessage().contains(EnvoyConfigReader.NOT_ENVOY)) {
                throw new InputException(e.getMessage() + ". " + READS);
            }
            throw e;
        }
        List<Finding> file = new ArrayList<>();
        for (String note : config.notes()) {
            file.add(Finding.aboutFile(Rule.NOT_MODELLED, Severity.NOTE, note, source, lineOf(note)));
        }
        if (config.clusters().isEmpty()) {
            file.add(Finding.aboutFile(
                    Rule.NOTHING_TO_CHECK,
                    Severity.NOTE,
                    "the file holds no clusters (an empty " + describe(config.kind())
                            + "), so there is no outlier detection to check",
                    source,
                    1));
        }
        return new Loaded(CheckTargets.fromEnvoy(config), file);
    }

    /**
     * A file that could not be read, among several: its message becomes a {@link Rule#FILE_NOT_READ} error at
     * the line the message names, so that the other files are still checked and reported.
     */
    public static Loaded unreadable(String source, InputException e) {
        return unreadable(source, e, true);
    }

    /**
     * The same for an input that has no lines when {@code hasLines} is false (a directory): its finding's line is
     * then 0, which the reports leave out, instead of a line 1 that does not exist.
     */
    public static Loaded unreadable(String source, InputException e, boolean hasLines) {
        // a reader names the file as it was given, or by its name alone (nginx's "nginx.conf:12: ...")
        String given = e.getMessage();
        Path name = Path.of(source).getFileName();
        String prefix = given.startsWith(source + ":")
                ? source
                : name != null && given.startsWith(name + ":") ? name.toString() : null;
        Matcher m = Pattern.compile("^" + Pattern.quote(prefix == null ? source : prefix) + ":([0-9]+):")
                .matcher(given);
        int line = m.find() ? Integer.parseInt(m.group(1)) : hasLines ? 1 : 0;
        String message = prefix != null
                ? given.substring(prefix.length() + 1)
                        .replaceFirst("^[0-9]+:([0-9]+:)? ?", "")
                        .strip()
                : given;
        return new Loaded(
                List.of(),
                List.of(Finding.aboutFile(Rule.FILE_NOT_READ, Severity.ERROR, "not read: " + message, source, line)),
                source);
    }

    /** What check reads, for the message about a file it does not. */
    static final String READS = "check reads: Envoy configuration (a Cluster, a list of clusters, a bootstrap, a CDS "
            + "DiscoveryResponse, an admin /config_dump); Kubernetes manifests with "
            + String.join(", ", ManifestTargets.READ_KINDS)
            + "; a gateway configuration (a top-level gateway: section)";

    /**
     * Where the file is a template: the line, start and end of the first {{ ... }} that is not inside a string of
     * a resource check does not read (a rendered Istio install manifest carries its sidecar-injection templates
     * in a ConfigMap's data, and is not a template); null when it is not one.
     */
    private static int[] templateAt(String text, String source) {
        Matcher any = TEMPLATE.matcher(text);
        if (!any.find()) {
            return null;
        }
        for (YamlDocuments.Document doc : YamlDocuments.split(text)) {
            Matcher m = TEMPLATE.matcher(doc.text());
            if (!m.find()) {
                continue;
            }
            boolean opaque;
            try {
                Located root = YamlTree.parse(doc.text(), source, doc.firstLine());
                Object kind = root.value() instanceof Map<?, ?> map && map.get("kind") instanceof Located k
                        ? k.value()
                        : null;
                opaque = kind instanceof String k
                        && !ManifestTargets.READ_KINDS.contains(k)
                        && !ManifestTargets.LISTS.contains(k);
            } catch (InputException e) {
                opaque = false;
            }
            if (!opaque) {
                int line = doc.firstLine()
                        + (int) doc.text()
                                .substring(0, m.start())
                                .chars()
                                .filter(ch -> ch == '\n')
                                .count();
                int start = text.indexOf(m.group());
                return new int[] {
                    line, Math.max(0, start), Math.max(0, start) + m.group().length()
                };
            }
        }
        return null;
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
