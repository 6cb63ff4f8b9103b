package dev.outlierlab.tune;

import dev.outlierlab.check.CheckInputs;
import dev.outlierlab.check.CheckTarget;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.yaml.YamlTree;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * The recommendation as the user's own file: the {@code --from} file's text with only the outlier-detection fields
 * that change edited in place, found by the YAML parser's node positions (SnakeYAML's marks), so that every other
 * field, comment and document stays byte for byte (an Envoy cluster's endpoints and health checks, a
 * DestinationRule's namespace, host, subsets, connection pool and load balancer, the other documents of the file).
 * A changed field's value is replaced where it stands; a field the file lacks is added at the end of its block. The
 * result is read back by the target's reader and must give the recommended setting, or it is not offered.
 *
 * <p>Also the smallest change in the target's idiom: for Istio the body of a {@code kubectl patch --type merge} of
 * {@code spec.trafficPolicy.outlierDetection}; for Envoy the {@code outlier_detection} fields with the cluster they
 * go in.
 */
public final class DeployableFile {
    /**
     * The user's file with the recommendation spliced in, a minimal patch in the target's idiom, and why there is
     * none when splicing is not possible (then {@code text} is null).
     */
    public record Spliced(String text, String patch, String notDone) {}

    private DeployableFile() {}

    /** A change to the original text: replace {@code [start, end)} (code-unit offsets) with {@code text}. */
    private record Edit(int start, int end, String text) {}

    /**
     * Splices {@code recommended} into {@code original} (the {@code --from} file's text); {@code currentConfig} is
     * what the file gives, {@code written} the recommendation as the lab writes the target's file.
     */
    static Spliced of(
            String original,
            EnvoyTarget target,
            OutlierDetectionConfig currentConfig,
            Setting recommended,
            Target.Written written,
            EnvoyVersion version) {
        return of(original, target, currentConfig, recommended, written, version, null);
    }

    /**
     * As {@link #of(String, EnvoyTarget, OutlierDetectionConfig, Setting, Target.Written, EnvoyVersion)} for the cluster
     * named {@code cluster} ({@code payments/v2}: a DestinationRule's subset): a subset with an {@code outlierDetection}
     * of its own is edited there, as istiod gives the subset's cluster that block and not the rule's
     * ({@code MergeSubsetTrafficPolicy}); null or a subset that inherits the rule's: the rule's block.
     */
    static Spliced of(
            String original,
            EnvoyTarget target,
            OutlierDetectionConfig currentConfig,
            Setting recommended,
            Target.Written written,
            EnvoyVersion version,
            String cluster) {
        String subset = target == EnvoyTarget.ISTIO && cluster != null && cluster.contains("/")
                ? cluster.substring(cluster.indexOf('/') + 1).replaceAll(":[0-9]+$", "")
                : null;
        try {
            List<Node> documents = compose(original);
            Located block = locate(documents, target, subset);
            if (block == null) {
                return new Spliced(
                        null,
                        null,
                        "no single " + (target == EnvoyTarget.ENVOY ? "cluster" : "DestinationRule")
                                + " in block style to edit in place");
            }
            Map<String, String> changes = changes(target, written, block, currentConfig, version);
            String text = apply(original, edits(original, block, changes));
            OutlierDetectionConfig read = readBack(text, block.subsetIndex() < 0 ? null : cluster);
            if (!Setting.of(read).equals(recommended)) {
                return new Spliced(
                        null,
                        null,
                        "the file with the changes spliced in reads back as "
                                + Setting.of(read).label() + ", not the recommendation");
            }
            return new Spliced(text, patch(target, block, changes, documents), null);
        } catch (YAMLException | InputException | IllegalStateException e) {
            return new Spliced(null, null, "the file could not be edited in place (" + e.getMessage() + ")");
        }
    }

    /** Where the outlier block is or goes: the mapping that holds it, its key, and its own mapping when present. */
    private record Located(MappingNode parent, String key, MappingNode block, MappingNode document, int subsetIndex) {
        Located(MappingNode parent, String key, MappingNode block, MappingNode document) {
            this(parent, key, block, document, -1);
        }
    }

    private static List<Node> compose(String text) {
        LoaderOptions options = new LoaderOptions();
        options.setCodePointLimit(YamlTree.MAX_DOCUMENT_CHARS);
        options.setMaxAliasesForCollections(200);
        List<Node> out = new ArrayList<>();
        for (Node n : new Yaml(options).composeAll(new StringReader(text))) {
            if (n != null) {
                out.add(n);
            }
        }
        return out;
    }

    private static Located locate(List<Node> documents, EnvoyTarget target) {
        return locate(documents, target, null);
    }

    /** A subset's own outlierDetection block, or null when the subset has none (it inherits the rule's). */
    private static Located subsetBlock(MappingNode spec, MappingNode root, String subset) {
        Node subsets = spec == null ? null : value(spec, "subsets");
        if (!(subsets instanceof SequenceNode list)) {
            return null;
        }
        for (int i = 0; i < list.getValue().size(); i++) {
            if (list.getValue().get(i) instanceof MappingNode entry && subset.equals(scalar(entry, "name"))) {
                MappingNode policy = mapping(entry, "trafficPolicy");
                MappingNode od = policy == null ? null : mapping(policy, "outlierDetection");
                return od == null || policy.getFlowStyle() != DumperOptions.FlowStyle.BLOCK
                        ? null
                        : new Located(policy, "outlierDetection", od, root, i);
            }
        }
        return null;
    }

    private static Located locate(List<Node> documents, EnvoyTarget target, String subset) {
        List<Located> found = new ArrayList<>();
        for (Node doc : documents) {
            if (!(doc instanceof MappingNode root)) {
                continue;
            }
            if (target == EnvoyTarget.ISTIO) {
                if (!"DestinationRule".equals(scalar(root, "kind"))) {
                    continue;
                }
                MappingNode spec = mapping(root, "spec");
                Located own = subset == null ? null : subsetBlock(spec, root, subset);
                if (own != null) {
                    found.add(own);
                    continue;
                }
                MappingNode policy = spec == null ? null : mapping(spec, "trafficPolicy");
                if (policy != null && policy.getFlowStyle() == DumperOptions.FlowStyle.BLOCK) {
                    found.add(new Located(policy, "outlierDetection", mapping(policy, "outlierDetection"), root));
                }
            } else {
                collectClusters(root, root, found);
            }
        }
        if (found.size() != 1) {
            return null;
        }
        Located l = found.get(0);
        if (l.block() != null
                && (l.block().getFlowStyle() != DumperOptions.FlowStyle.BLOCK
                        || l.block().getValue().isEmpty())) {
            return null;
        }
        return l;
    }

    /** Envoy clusters: block mappings with outlier_detection, or with a name and load_assignment or connect_timeout. */
    private static void collectClusters(Node node, MappingNode document, List<Located> found) {
        if (node instanceof MappingNode m) {
            MappingNode od = mapping(m, "outlier_detection");
            boolean cluster = od != null
                    || (scalar(m, "name") != null
                            && (value(m, "load_assignment") != null || value(m, "connect_timeout") != null));
            if (cluster && m.getFlowStyle() == DumperOptions.FlowStyle.BLOCK) {
                found.add(new Located(m, "outlier_detection", od, document));
                return;
            }
            for (NodeTuple t : m.getValue()) {
                collectClusters(t.getValueNode(), document, found);
            }
        } else if (node instanceof SequenceNode s) {
            for (Node n : s.getValue()) {
                collectClusters(n, document, found);
            }
        }
    }

    /**
     * The fields to set, key to value as YAML scalars: for Envoy every field whose value the recommendation changes
     * (not written when the release lacks it); for Istio every key of the written block whose text differs.
     */
    private static Map<String, String> changes(
            EnvoyTarget target,
            Target.Written written,
            Located block,
            OutlierDetectionConfig currentConfig,
            EnvoyVersion version) {
        Map<String, String> writtenBlock = writtenFields(written.text(), target);
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : writtenBlock.entrySet()) {
            Node have = block.block() == null ? null : value(block.block(), e.getKey());
            if (have instanceof ScalarNode s && s.getValue().equals(unquoted(e.getValue()))) {
                continue;
            }
            out.put(e.getKey(), e.getValue());
        }
        if (target == EnvoyTarget.ENVOY) {
            // keep only the fields whose value differs from what the file gives now (absent: Envoy's default)
            OutlierDetectionConfig now = currentConfig;
            OutlierDetectionConfig want = written.config();
            out.keySet().removeIf(key -> {
                OutlierSetting s = OutlierSetting.byEnvoyName(key);
                EnvoyVersion added = s == null ? null : EnvoyVersion.addedIn(s);
                return s == null || (added != null && !version.atLeast(added)) || now.get(s) == want.get(s);
            });
        }
        return out;
    }

    /** The written file's outlier block as key to scalar text, in order. */
    private static Map<String, String> writtenFields(String text, EnvoyTarget target) {
        Located w = locate(compose(text), target);
        if (w == null || w.block() == null) {
            throw new IllegalStateException("the lab's own file has no outlier block");
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (NodeTuple t : w.block().getValue()) {
            if (t.getKeyNode() instanceof ScalarNode k && t.getValueNode() instanceof ScalarNode v) {
                out.put(k.getValue(), slice(text, v));
            }
        }
        return out;
    }

    private static List<Edit> edits(String original, Located at, Map<String, String> changes) {
        List<Edit> edits = new ArrayList<>();
        if (changes.isEmpty()) {
            return edits;
        }
        if (at.block() == null) {
            int indent = column(original, at.parent().getValue().get(0).getKeyNode());
            int end = endOfLine(original, lastLeaf(at.parent()));
            StringBuilder sb = new StringBuilder("\n")
                    .append(" ".repeat(indent))
                    .append(at.key())
                    .append(':');
            changes.forEach((k, v) -> sb.append('\n')
                    .append(" ".repeat(indent + 2))
                    .append(k)
                    .append(": ")
                    .append(v));
            edits.add(new Edit(end, end, sb.toString()));
            return edits;
        }
        Map<String, String> added = new LinkedHashMap<>(changes);
        for (NodeTuple t : at.block().getValue()) {
            if (!(t.getKeyNode() instanceof ScalarNode k) || !changes.containsKey(k.getValue())) {
                continue;
            }
            Node v = t.getValueNode();
            if (!(v instanceof ScalarNode)) {
                throw new IllegalStateException(k.getValue() + " is not a plain value in the file");
            }
            edits.add(new Edit(
                    offset(original, v.getStartMark().getIndex()),
                    offset(original, v.getEndMark().getIndex()),
                    changes.get(k.getValue())));
            added.remove(k.getValue());
        }
        if (!added.isEmpty()) {
            int indent = column(original, at.block().getValue().get(0).getKeyNode());
            int end = endOfLine(original, lastLeaf(at.block()));
            StringBuilder sb = new StringBuilder();
            added.forEach((k, v) -> sb.append('\n')
                    .append(" ".repeat(indent))
                    .append(k)
                    .append(": ")
                    .append(v));
            edits.add(new Edit(end, end, sb.toString()));
        }
        return edits;
    }

    private static String apply(String original, List<Edit> edits) {
        List<Edit> sorted = new ArrayList<>(edits);
        sorted.sort(Comparator.comparingInt(Edit::start).reversed());
        StringBuilder sb = new StringBuilder(original);
        for (Edit e : sorted) {
            sb.replace(e.start(), e.end(), e.text());
        }
        return sb.toString();
    }

    private static OutlierDetectionConfig readBack(String text, String cluster) {
        List<CheckTarget> read = CheckInputs.read(text, "recommended", null, false).targets().stream()
                .filter(t -> t.config() != null && (cluster == null || t.name().equals(cluster)))
                .toList();
        if (read.isEmpty()) {
            throw new IllegalStateException("no cluster read back");
        }
        return read.get(0).config();
    }

    /**
     * The smallest change in the target's idiom: an Istio merge patch of the outlier block
     * ({@code kubectl patch destinationrule NAME -n NAMESPACE --type merge -p '...'}), or the Envoy fields with the
     * cluster they go in.
     */
    private static String patch(EnvoyTarget target, Located at, Map<String, String> changes, List<Node> documents) {
        if (changes.isEmpty()) {
            return null;
        }
        if (target == EnvoyTarget.ISTIO) {
            MappingNode meta = mapping(at.document(), "metadata");
            String name = meta == null ? null : scalar(meta, "name");
            String ns = meta == null ? null : scalar(meta, "namespace");
            if (at.subsetIndex() >= 0) {
                // a merge patch replaces a list whole: a JSON patch reaches into the subset (add replaces a member)
                StringBuilder ops = new StringBuilder("[");
                boolean first = true;
                for (Map.Entry<String, String> e : changes.entrySet()) {
                    String v = unquoted(e.getValue());
                    ops.append(first ? "" : ",")
                            .append("{\"op\":\"add\",\"path\":\"/spec/subsets/")
                            .append(at.subsetIndex())
                            .append("/trafficPolicy/outlierDetection/")
                            .append(e.getKey())
                            .append("\",\"value\":")
                            .append(v.matches("-?[0-9]+") ? v : "\"" + v + "\"")
                            .append('}');
                    first = false;
                }
                ops.append(']');
                return "kubectl patch destinationrule " + (name == null ? "NAME" : name)
                        + (ns == null ? "" : " -n " + ns) + " --type json -p '" + ops + "'";
            }
            StringBuilder body = new StringBuilder("{\"spec\":{\"trafficPolicy\":{\"outlierDetection\":{");
            boolean first = true;
            for (Map.Entry<String, String> e : changes.entrySet()) {
                String v = unquoted(e.getValue());
                body.append(first ? "" : ",")
                        .append('"')
                        .append(e.getKey())
                        .append("\":")
                        .append(v.matches("-?[0-9]+") ? v : "\"" + v + "\"");
                first = false;
            }
            body.append("}}}}");
            return "kubectl patch destinationrule " + (name == null ? "NAME" : name) + (ns == null ? "" : " -n " + ns)
                    + " --type merge -p '" + body + "'";
        }
        String cluster = scalar(at.parent(), "name");
        StringBuilder sb = new StringBuilder("# in the cluster named " + (cluster == null ? "(unnamed)" : cluster)
                + ", under outlier_detection:\noutlier_detection:\n");
        changes.forEach(
                (k, v) -> sb.append("  ").append(k).append(": ").append(v).append('\n'));
        return sb.toString();
    }

    private static Node value(MappingNode m, String key) {
        for (NodeTuple t : m.getValue()) {
            if (t.getKeyNode() instanceof ScalarNode k && k.getValue().equals(key)) {
                return t.getValueNode();
            }
        }
        return null;
    }

    private static MappingNode mapping(MappingNode m, String key) {
        return value(m, key) instanceof MappingNode n ? n : null;
    }

    private static String scalar(MappingNode m, String key) {
        return value(m, key) instanceof ScalarNode s ? s.getValue() : null;
    }

    private static Node lastLeaf(Node n) {
        if (n instanceof MappingNode m && !m.getValue().isEmpty()) {
            return lastLeaf(m.getValue().get(m.getValue().size() - 1).getValueNode());
        }
        if (n instanceof SequenceNode s && !s.getValue().isEmpty()) {
            return lastLeaf(s.getValue().get(s.getValue().size() - 1));
        }
        return n;
    }

    /** The end of the line on which {@code node} ends (before its newline): where a new sibling line goes. */
    private static int endOfLine(String text, Node node) {
        int at = offset(text, node.getEndMark().getIndex());
        if (node instanceof ScalarNode && at > 0 && text.charAt(at - 1) == '\n') {
            at--; // a block scalar ends after its newline
        }
        int nl = text.indexOf('\n', at);
        return nl < 0 ? text.length() : nl;
    }

    private static int column(String text, Node node) {
        return node.getStartMark().getColumn();
    }

    /** A mark's index (code points) as a string offset (code units). */
    private static int offset(String text, int codePoints) {
        return text.offsetByCodePoints(0, Math.min(codePoints, text.codePointCount(0, text.length())));
    }

    private static String slice(String text, Node n) {
        return text.substring(
                offset(text, n.getStartMark().getIndex()),
                offset(text, n.getEndMark().getIndex()));
    }

    private static String unquoted(String v) {
        return v.length() >= 2 && (v.startsWith("\"") && v.endsWith("\"") || v.startsWith("'") && v.endsWith("'"))
                ? v.substring(1, v.length() - 1)
                : v;
    }
}
