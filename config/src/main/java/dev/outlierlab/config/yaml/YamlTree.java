package dev.outlierlab.config.yaml;

import dev.outlierlab.config.InputException;
import java.io.StringReader;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Reads YAML (and so JSON) into a tree of {@link Located} values that remember their line, using SnakeYAML's
 * node graph so that anchors, aliases and merge keys work. Scalars keep their YAML type: integers as Long,
 * decimals as BigDecimal, booleans, strings, null.
 */
public final class YamlTree {
    /** Documents larger than this are refused before parsing. */
    public static final int MAX_DOCUMENT_CHARS = 8 * 1024 * 1024;

    private YamlTree() {
    }

    /** Parses one document; an empty document gives an empty map. */
    public static Located parse(String text, String source) {
        if (text.length() > MAX_DOCUMENT_CHARS) {
            throw new InputException(source + ": the file is larger than " + (MAX_DOCUMENT_CHARS / 1024 / 1024) + " MiB");
        }
        Node root;
        try {
            LoaderOptions options = new LoaderOptions();
            options.setAllowDuplicateKeys(false);
            options.setMaxAliasesForCollections(200);
            options.setCodePointLimit(MAX_DOCUMENT_CHARS);
            root = new Yaml(options).compose(new StringReader(text));
        } catch (MarkedYAMLException e) {
            int line = e.getProblemMark() == null ? 0 : e.getProblemMark().getLine() + 1;
            int column = e.getProblemMark() == null ? 0 : e.getProblemMark().getColumn() + 1;
            String problem = e.getProblem() == null ? "malformed YAML" : e.getProblem();
            throw new InputException(source + ":" + line + ":" + column + ": malformed YAML: " + problem
                    + (e.getContext() != null ? " (" + e.getContext() + ")" : ""));
        } catch (YAMLException e) {
            throw new InputException(source + ": malformed YAML: " + e.getMessage());
        }
        if (root == null) {
            return new Located(new LinkedHashMap<String, Located>(), source + ":1");
        }
        return convert(root, source);
    }

    /** Parses a single value given on the command line, e.g. {@code 34}, {@code true}, {@code [a, b]}. */
    public static Located parseValue(String text, String origin) {
        Located parsed = parse(text.isEmpty() ? "''" : text, origin);
        return relabel(parsed, origin);
    }

    private static Located relabel(Located l, String origin) {
        Object v = l.value();
        if (v instanceof Map<?, ?> m) {
            LinkedHashMap<String, Located> copy = new LinkedHashMap<>();
            m.forEach((k, x) -> copy.put((String) k, relabel((Located) x, origin)));
            return new Located(copy, origin);
        }
        if (v instanceof List<?> list) {
            ArrayList<Located> copy = new ArrayList<>();
            list.forEach(x -> copy.add(relabel((Located) x, origin)));
            return new Located(copy, origin);
        }
        return new Located(v, origin);
    }

    private static Located convert(Node node, String source) {
        String origin = source + ":" + (node.getStartMark().getLine() + 1);
        if (node instanceof MappingNode mapping) {
            LinkedHashMap<String, Located> map = new LinkedHashMap<>();
            java.util.Set<String> explicitKeys = new java.util.HashSet<>();
            for (NodeTuple tuple : mapping.getValue()) {
                if (Tag.MERGE.equals(tuple.getKeyNode().getTag())) {
                    mergeInto(map, tuple.getValueNode(), source);
                }
            }
            for (NodeTuple tuple : mapping.getValue()) {
                Node keyNode = tuple.getKeyNode();
                if (Tag.MERGE.equals(keyNode.getTag())) {
                    continue;
                }
                if (!(keyNode instanceof ScalarNode key)) {
                    throw new InputException(source + ":" + (keyNode.getStartMark().getLine() + 1)
                            + ": keys must be plain names");
                }
                if (!explicitKeys.add(key.getValue())) {
                    throw new InputException(source + ":" + (keyNode.getStartMark().getLine() + 1)
                            + ": duplicate key '" + key.getValue() + "'");
                }
                map.put(key.getValue(), convert(tuple.getValueNode(), source));
            }
            return new Located(map, origin);
        }
        if (node instanceof SequenceNode seq) {
            ArrayList<Located> list = new ArrayList<>();
            for (Node item : seq.getValue()) {
                list.add(convert(item, source));
            }
            return new Located(list, origin);
        }
        ScalarNode scalar = (ScalarNode) node;
        return new Located(scalarValue(scalar), origin);
    }

    /** YAML merge keys ({@code <<: *anchor} or a list of anchors): entries not given explicitly. */
    private static void mergeInto(LinkedHashMap<String, Located> map, Node merged, String source) {
        List<Node> sources = merged instanceof SequenceNode seq ? seq.getValue() : List.of(merged);
        for (Node n : sources) {
            Located l = convert(n, source);
            if (!(l.value() instanceof Map<?, ?> m)) {
                throw new InputException(l.origin() + ": a merge key (<<) must refer to a mapping");
            }
            m.forEach((k, v) -> map.putIfAbsent((String) k, (Located) v));
        }
    }

    private static Object scalarValue(ScalarNode scalar) {
        String text = scalar.getValue();
        Tag tag = scalar.getTag();
        try {
            if (Tag.NULL.equals(tag)) {
                return null;
            }
            if (Tag.BOOL.equals(tag)) {
                return Boolean.parseBoolean(text.toLowerCase(java.util.Locale.ROOT));
            }
            if (Tag.INT.equals(tag)) {
                return Long.parseLong(text.replace("_", ""));
            }
            if (Tag.FLOAT.equals(tag)) {
                return new BigDecimal(text.replace("_", ""));
            }
        } catch (NumberFormatException e) {
            return text;
        }
        return text;
    }
}
