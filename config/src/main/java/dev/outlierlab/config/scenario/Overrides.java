package dev.outlierlab.config.scenario;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.config.yaml.YamlTree;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Applies {@code --set KEY=VALUE} to a scenario tree: dotted keys with list indexes, e.g.
 * {@code outlier_detection.max_ejection_percent=34} or {@code faults[0].error_rate=100}. Missing maps are
 * created; a missing {@code faults} list starts from the default scenario's, so {@code faults[0].x} edits the
 * default fault; an index equal to the list's length appends an entry. The value is read as YAML.
 */
final class Overrides {
    private static final Pattern SEGMENT = Pattern.compile("([A-Za-z0-9_]+)((?:\\[[0-9]+\\])*)");
    private static final Pattern INDEX = Pattern.compile("\\[([0-9]+)\\]");

    private Overrides() {}

    @SuppressWarnings("unchecked")
    static void apply(Located root, String assignment) {
        int eq = assignment.indexOf('=');
        if (eq <= 0) {
            throw new InputException("--set " + assignment
                    + ": expected KEY=VALUE, e.g. --set outlier_detection.max_ejection_percent=34");
        }
        String key = assignment.substring(0, eq).trim();
        String origin = "--set " + key;
        Located value = YamlTree.parseValue(assignment.substring(eq + 1), origin);
        String[] parts = key.split("\\.", -1);
        Located current = root;
        for (int p = 0; p < parts.length; p++) {
            Matcher m = SEGMENT.matcher(parts[p]);
            if (!m.matches()) {
                throw new InputException(origin + ": '" + parts[p]
                        + "' is not a key; expected dotted names with optional [index], e.g. faults[0].error_rate");
            }
            List<Integer> indexes = new ArrayList<>();
            Matcher im = INDEX.matcher(m.group(2));
            while (im.find()) {
                indexes.add(index(im.group(1), origin));
            }
            boolean last = p == parts.length - 1;
            Map<String, Located> map = asMap(current, origin, parts, p);
            String name = m.group(1);
            if (last && indexes.isEmpty()) {
                map.put(name, value);
                return;
            }
            Located child = map.get(name);
            if (child == null || child.value() == null) {
                child = indexes.isEmpty()
                        ? new Located(new LinkedHashMap<String, Located>(), origin)
                        : defaultList(name, origin);
                map.put(name, child);
            }
            for (int i = 0; i < indexes.size(); i++) {
                if (!(child.value() instanceof List)) {
                    throw new InputException(origin + ": " + name + " is not a list");
                }
                List<Located> list = (List<Located>) child.value();
                int index = indexes.get(i);
                boolean lastIndex = last && i == indexes.size() - 1;
                if (index > list.size()) {
                    throw new InputException(origin + ": index " + index + " is out of range; " + name + " has "
                            + list.size() + " entries (use [" + list.size() + "] to add one)");
                }
                if (lastIndex) {
                    if (index == list.size()) {
                        list.add(value);
                    } else {
                        list.set(index, value);
                    }
                    return;
                }
                if (index == list.size()) {
                    list.add(new Located(new LinkedHashMap<String, Located>(), origin));
                }
                child = list.get(index);
            }
            current = child;
        }
    }

    /** A list index; one past any list the reader accepts is refused here rather than overflowing. */
    private static int index(String digits, String origin) {
        String significant = digits.replaceFirst("^0+(?=.)", "");
        if (significant.length() > 9) {
            throw new InputException(origin + ": index "
                    + (significant.length() > 20 ? significant.substring(0, 20) + "..." : significant)
                    + " is out of range; an index is a whole number below 1,000,000,000");
        }
        return Integer.parseInt(significant);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Located> asMap(Located node, String origin, String[] parts, int p) {
        if (!(node.value() instanceof Map)) {
            throw new InputException(origin + ": " + String.join(".", Arrays.copyOf(parts, p))
                    + " is not a mapping, so it has no key '" + parts[p] + "'");
        }
        return (Map<String, Located>) node.value();
    }

    private static Located defaultList(String name, String origin) {
        Object plain = ScenarioWriter.toMap(Scenario.defaults()).get(name);
        if (plain instanceof List) {
            return Values.fromPlain(plain, "default " + name);
        }
        return new Located(new ArrayList<Located>(), origin);
    }
}
