package dev.outlierlab.tune;

import dev.outlierlab.config.yaml.YamlTree;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * A YAML file as SnakeYAML's node tree, kept with its text: the lookups of a key in a mapping, and where a node
 * stands in the text (SnakeYAML's marks count code points; the text's offsets are code units).
 */
final class YamlNodes {
    private YamlNodes() {}

    /** The documents of {@code text} as nodes, empty documents left out. */
    static List<Node> compose(String text) {
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

    static Node value(MappingNode m, String key) {
        for (NodeTuple t : m.getValue()) {
            if (t.getKeyNode() instanceof ScalarNode k && k.getValue().equals(key)) {
                return t.getValueNode();
            }
        }
        return null;
    }

    static MappingNode mapping(MappingNode m, String key) {
        return value(m, key) instanceof MappingNode n ? n : null;
    }

    static String scalar(MappingNode m, String key) {
        return value(m, key) instanceof ScalarNode s ? s.getValue() : null;
    }

    /** The last scalar (or empty collection) under {@code n}: where its text ends. */
    static Node lastLeaf(Node n) {
        if (n instanceof MappingNode m && !m.getValue().isEmpty()) {
            return lastLeaf(m.getValue().get(m.getValue().size() - 1).getValueNode());
        }
        if (n instanceof SequenceNode s && !s.getValue().isEmpty()) {
            return lastLeaf(s.getValue().get(s.getValue().size() - 1));
        }
        return n;
    }

    /** The end of the line on which {@code node} ends (before its newline): where a new sibling line goes. */
    static int endOfLine(String text, Node node) {
        int at = offset(text, node.getEndMark().getIndex());
        if (node instanceof ScalarNode && at > 0 && text.charAt(at - 1) == '\n') {
            at--; // a block scalar ends after its newline
        }
        int nl = text.indexOf('\n', at);
        return nl < 0 ? text.length() : nl;
    }

    static int column(Node node) {
        return node.getStartMark().getColumn();
    }

    /** A mark's index (code points) as a string offset (code units). */
    static int offset(String text, int codePoints) {
        return text.offsetByCodePoints(0, Math.min(codePoints, text.codePointCount(0, text.length())));
    }

    /** The text of {@code n} as written. */
    static String slice(String text, Node n) {
        return text.substring(
                offset(text, n.getStartMark().getIndex()),
                offset(text, n.getEndMark().getIndex()));
    }

    /** A scalar's text without its quotes. */
    static String unquoted(String v) {
        return v.length() >= 2 && (v.startsWith("\"") && v.endsWith("\"") || v.startsWith("'") && v.endsWith("'"))
                ? v.substring(1, v.length() - 1)
                : v;
    }
}
