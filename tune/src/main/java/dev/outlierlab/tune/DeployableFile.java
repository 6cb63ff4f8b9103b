package dev.outlierlab.tune;

import static dev.outlierlab.tune.YamlNodes.column;
import static dev.outlierlab.tune.YamlNodes.endOfLine;
import static dev.outlierlab.tune.YamlNodes.lastLeaf;
import static dev.outlierlab.tune.YamlNodes.offset;
import static dev.outlierlab.tune.YamlNodes.slice;
import static dev.outlierlab.tune.YamlNodes.unquoted;
import static dev.outlierlab.tune.YamlNodes.value;

import dev.outlierlab.check.CheckInputs;
import dev.outlierlab.check.CheckTarget;
import dev.outlierlab.config.InputException;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;

/**
 * The recommendation as the user's own file: the {@code --from} file's text with only the outlier-detection fields
 * that change edited in place, found by the YAML parser's node positions (SnakeYAML's marks), so that every other
 * field, comment and document stays byte for byte (an Envoy cluster's endpoints and health checks, a
 * DestinationRule's namespace, host, subsets, connection pool and load balancer, the other documents of the file).
 * A changed field's value is replaced where it stands; a field the file lacks is added at the end of its block. The
 * result is read back by the target's reader and must give the recommended setting, or it is not offered.
 *
 * <p>Where the block is: {@link OutlierBlock}; the node lookups and text positions: {@link YamlNodes}. Also the
 * smallest change in the target's idiom ({@link TargetPatch}): for Istio the body of a
 * {@code kubectl patch --type merge} of {@code spec.trafficPolicy.outlierDetection}; for Envoy the
 * {@code outlier_detection} fields with the cluster they go in.
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
            OutlierBlock block = OutlierBlock.locate(YamlNodes.compose(original), target, subset);
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
            return new Spliced(text, TargetPatch.of(target, block, changes), null);
        } catch (YAMLException | InputException | IllegalStateException e) {
            return new Spliced(null, null, "the file could not be edited in place (" + e.getMessage() + ")");
        }
    }

    /**
     * The fields to set, key to value as YAML scalars: for Envoy every field whose value the recommendation changes
     * (not written when the release lacks it); for Istio every key of the written block whose text differs.
     */
    private static Map<String, String> changes(
            EnvoyTarget target,
            Target.Written written,
            OutlierBlock block,
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
        OutlierBlock w = OutlierBlock.locate(YamlNodes.compose(text), target);
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

    private static List<Edit> edits(String original, OutlierBlock at, Map<String, String> changes) {
        List<Edit> edits = new ArrayList<>();
        if (changes.isEmpty()) {
            return edits;
        }
        if (at.block() == null) {
            int indent = column(at.parent().getValue().get(0).getKeyNode());
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
            int indent = column(at.block().getValue().get(0).getKeyNode());
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
}
