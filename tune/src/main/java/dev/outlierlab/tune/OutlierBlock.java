package dev.outlierlab.tune;

import static dev.outlierlab.tune.YamlNodes.mapping;
import static dev.outlierlab.tune.YamlNodes.scalar;
import static dev.outlierlab.tune.YamlNodes.value;

import java.util.ArrayList;
import java.util.List;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * Where the outlier-detection block of a file is or goes: the mapping that holds it, its key, its own mapping when
 * present, the document it is in and, for a DestinationRule subset's own block, the subset's index.
 *
 * @param parent      the mapping that holds the block (a cluster, a {@code trafficPolicy})
 * @param key         {@code outlier_detection} or {@code outlierDetection}
 * @param block       the block's mapping, or null when the file has none yet
 * @param document    the document's root mapping
 * @param subsetIndex the subset's index in {@code spec.subsets}, or -1 for the rule's or a cluster's block
 */
record OutlierBlock(MappingNode parent, String key, MappingNode block, MappingNode document, int subsetIndex) {
    OutlierBlock(MappingNode parent, String key, MappingNode block, MappingNode document) {
        this(parent, key, block, document, -1);
    }

    /** The one block of {@code documents} for {@code target}, or null when there is none or several. */
    static OutlierBlock locate(List<Node> documents, EnvoyTarget target) {
        return locate(documents, target, null);
    }

    /**
     * The one block of {@code documents} for {@code target}: for Istio the DestinationRule's, or {@code subset}'s own
     * when it has one; null when there is no single block in block style to edit in place.
     */
    static OutlierBlock locate(List<Node> documents, EnvoyTarget target, String subset) {
        List<OutlierBlock> found = new ArrayList<>();
        for (Node doc : documents) {
            if (!(doc instanceof MappingNode root)) {
                continue;
            }
            if (target == EnvoyTarget.ISTIO) {
                if (!"DestinationRule".equals(scalar(root, "kind"))) {
                    continue;
                }
                MappingNode spec = mapping(root, "spec");
                OutlierBlock own = subset == null ? null : subsetBlock(spec, root, subset);
                if (own != null) {
                    found.add(own);
                    continue;
                }
                MappingNode policy = spec == null ? null : mapping(spec, "trafficPolicy");
                if (policy != null && policy.getFlowStyle() == DumperOptions.FlowStyle.BLOCK) {
                    found.add(new OutlierBlock(policy, "outlierDetection", mapping(policy, "outlierDetection"), root));
                }
            } else {
                collectClusters(root, root, found);
            }
        }
        if (found.size() != 1) {
            return null;
        }
        OutlierBlock l = found.get(0);
        if (l.block() != null
                && (l.block().getFlowStyle() != DumperOptions.FlowStyle.BLOCK
                        || l.block().getValue().isEmpty())) {
            return null;
        }
        return l;
    }

    /** A subset's own outlierDetection block, or null when the subset has none (it inherits the rule's). */
    private static OutlierBlock subsetBlock(MappingNode spec, MappingNode root, String subset) {
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
                        : new OutlierBlock(policy, "outlierDetection", od, root, i);
            }
        }
        return null;
    }

    /** Envoy clusters: block mappings with outlier_detection, or with a name and load_assignment or connect_timeout. */
    private static void collectClusters(Node node, MappingNode document, List<OutlierBlock> found) {
        if (node instanceof MappingNode m) {
            MappingNode od = mapping(m, "outlier_detection");
            boolean cluster = od != null
                    || (scalar(m, "name") != null
                            && (value(m, "load_assignment") != null || value(m, "connect_timeout") != null));
            if (cluster && m.getFlowStyle() == DumperOptions.FlowStyle.BLOCK) {
                found.add(new OutlierBlock(m, "outlier_detection", od, document));
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
}
