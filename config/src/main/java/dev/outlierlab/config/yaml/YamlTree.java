package dev.outlierlab.config.yaml;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.io.BoundedLineReader;
import dev.outlierlab.config.io.ScalarRun;
import java.io.StringReader;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
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
 *
 * <p>Every YAML the project reads comes through here, so the bounds are here: a document of at most
 * {@link #MAX_DOCUMENT_CHARS}, lines of at most {@link BoundedLineReader#MAX_LINE_CHARS} (SnakeYAML's
 * scanner is quadratic in the length of one scalar), at most {@link #MAX_ALIAS_EXPANSION} nodes added by
 * aliases (a "billion laughs" of a few hundred bytes is refused instead of expanded to gigabytes), and an
 * alias inside its own anchor is named with its line instead of recursing.
 */
public final class YamlTree {
    /** Documents larger than this are refused before parsing. */
    public static final int MAX_DOCUMENT_CHARS = 8 * 1024 * 1024;
    /** The most nodes that aliases may add to a document's tree, counting every node of each expansion. */
    public static final int MAX_ALIAS_EXPANSION = 100_000;

    private YamlTree() {}

    /** Parses one document; an empty document gives an empty map. */
    public static Located parse(String text, String source) {
        return parse(text, source, true, 0);
    }

    /**
     * Parses one document of a longer stream that starts at {@code firstLine} of the file, so that lines in
     * values and messages are the file's.
     */
    public static Located parse(String text, String source, int firstLine) {
        return parse(text, source, true, firstLine - 1);
    }

    /**
     * Parses one document in which anchors and aliases are refused outright (the lab server: a page should
     * never make it expand anything).
     */
    public static Located parseWithoutAliases(String text, String source) {
        return parse(text, source, false, 0);
    }

    private static Located parse(String text, String source, boolean aliases, int lineOffset) {
        if (text.length() > MAX_DOCUMENT_CHARS) {
            throw new InputException(
                    source + ": the file is larger than " + (MAX_DOCUMENT_CHARS / 1024 / 1024) + " MiB");
        }
        checkLineLengths(text, source, lineOffset);
        Node root;
        try {
            LoaderOptions options = new LoaderOptions();
            options.setAllowDuplicateKeys(false);
            options.setMaxAliasesForCollections(200);
            options.setCodePointLimit(MAX_DOCUMENT_CHARS);
            root = new Yaml(options).compose(new StringReader(text));
        } catch (MarkedYAMLException e) {
            int line = e.getProblemMark() == null ? 0 : e.getProblemMark().getLine() + 1 + lineOffset;
            int column = e.getProblemMark() == null ? 0 : e.getProblemMark().getColumn() + 1;
            String problem = e.getProblem() == null ? "malformed YAML" : e.getProblem();
            throw new InputException(source + ":" + line + ":" + column + ": malformed YAML: " + problem
                    + (e.getContext() != null ? " (" + e.getContext() + ")" : ""));
        } catch (YAMLException e) {
            throw new InputException(source + ": malformed YAML: " + e.getMessage());
        }
        if (root == null) {
            return new Located(new LinkedHashMap<String, Located>(), source + ":" + (1 + lineOffset));
        }
        return new Conversion(source, aliases, lineOffset).convert(root);
    }

    private static void checkLineLengths(String text, String source, int lineOffset) {
        // the bound is on one scalar (SnakeYAML's quadratic case), not on a line: see ScalarRun
        int line = 1 + lineOffset;
        ScalarRun run = new ScalarRun();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (run.accept(c) > BoundedLineReader.MAX_LINE_CHARS) {
                throw new InputException(source + ":" + line + ": line " + line + " is longer than "
                        + String.format(Locale.ROOT, "%,d", BoundedLineReader.MAX_LINE_CHARS)
                        + " characters, the limit for one line; is this the right file?");
            }
            if (c == '\n' || c == '\r' && !(i + 1 < text.length() && text.charAt(i + 1) == '\n')) {
                line++;
            }
        }
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

    /** One document's conversion: which nodes were converted, which are being converted, how many aliases added. */
    private static final class Conversion {
        private final String source;
        private final boolean aliases;
        private final IdentityHashMap<Node, Boolean> converted = new IdentityHashMap<>();
        private final IdentityHashMap<Node, Boolean> inProgress = new IdentityHashMap<>();
        private final int lineOffset;
        private long expanded;

        Conversion(String source, boolean aliases, int lineOffset) {
            this.source = source;
            this.aliases = aliases;
            this.lineOffset = lineOffset;
        }

        private int line(Node node) {
            return node.getStartMark().getLine() + 1 + lineOffset;
        }

        private static String anchorName(Node node) {
            return node.getAnchor() == null ? "" : " &" + node.getAnchor();
        }

        Located convert(Node node) {
            if (inProgress.containsKey(node)) {
                throw new InputException(source + ":" + line(node) + ": a recursive alias: " + "the anchor"
                        + anchorName(node) + " is used inside itself, which would make an endless tree");
            }
            if (!aliases && node.getAnchor() != null) {
                throw new InputException(source + ":" + line(node) + ": anchor &" + node.getAnchor()
                        + ": anchors and aliases are not accepted here; write the values out");
            }
            if (converted.put(node, Boolean.TRUE) != null && ++expanded > MAX_ALIAS_EXPANSION) {
                throw new InputException(source + ":" + line(node) + ": aliases expand to "
                        + "more than " + String.format(Locale.ROOT, "%,d", MAX_ALIAS_EXPANSION)
                        + " nodes (a few lines of anchors can stand for millions of values); write the values out "
                        + "or use fewer aliases");
            }
            inProgress.put(node, Boolean.TRUE);
            try {
                return convertOnce(node);
            } finally {
                inProgress.remove(node);
            }
        }

        private Located convertOnce(Node node) {
            String origin = source + ":" + line(node);
            if (node instanceof MappingNode mapping) {
                LinkedHashMap<String, Located> map = new LinkedHashMap<>();
                Set<String> explicitKeys = new HashSet<>();
                for (NodeTuple tuple : mapping.getValue()) {
                    if (Tag.MERGE.equals(tuple.getKeyNode().getTag())) {
                        mergeInto(map, tuple.getValueNode());
                    }
                }
                for (NodeTuple tuple : mapping.getValue()) {
                    Node keyNode = tuple.getKeyNode();
                    if (Tag.MERGE.equals(keyNode.getTag())) {
                        continue;
                    }
                    if (!(keyNode instanceof ScalarNode key)) {
                        throw new InputException(source + ":" + line(keyNode) + ": keys must be plain names");
                    }
                    if (!explicitKeys.add(key.getValue())) {
                        throw new InputException(
                                source + ":" + line(keyNode) + ": duplicate key '" + key.getValue() + "'");
                    }
                    map.put(key.getValue(), convert(tuple.getValueNode()));
                }
                return new Located(map, origin);
            }
            if (node instanceof SequenceNode seq) {
                ArrayList<Located> list = new ArrayList<>();
                for (Node item : seq.getValue()) {
                    list.add(convert(item));
                }
                return new Located(list, origin);
            }
            ScalarNode scalar = (ScalarNode) node;
            return new Located(scalarValue(scalar), origin);
        }

        /** YAML merge keys ({@code <<: *anchor} or a list of anchors): entries not given explicitly. */
        void mergeInto(LinkedHashMap<String, Located> map, Node merged) {
            List<Node> sources = merged instanceof SequenceNode seq ? seq.getValue() : List.of(merged);
            for (Node n : sources) {
                Located l = convert(n);
                if (!(l.value() instanceof Map<?, ?> m)) {
                    throw new InputException(l.origin() + ": a merge key (<<) must refer to a mapping");
                }
                m.forEach((k, v) -> map.putIfAbsent((String) k, (Located) v));
            }
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
                return Boolean.parseBoolean(text.toLowerCase(Locale.ROOT));
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
