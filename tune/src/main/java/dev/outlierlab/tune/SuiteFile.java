package dev.outlierlab.tune;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.Wording;
import dev.outlierlab.config.io.TextFiles;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.config.yaml.YamlTree;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.Scenario;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code tune --suite FILE}: scenarios of one's own, each a lab scenario file (as {@code run} reads it, relative to
 * the suite file) with the correct action it is scored against. {@code suite: extend} (the default) adds them to the
 * built-in suite, {@code suite: replace} uses them alone:
 * <pre>
 * suite: extend
 * scenarios:
 *   - file: cache-outage.yaml
 *     expect: eject          # eject, none or at_most
 *     eject: [host-0]        # the hosts whose ejection is right (default: the hosts of the file's faults)
 *     single_host: true      # one host fails alone: no panic allowed (default: eject names one host)
 * </pre>
 */
public final class SuiteFile {
    private static final Set<String> TOP = Set.of("suite", "scenarios");
    private static final Set<String> ENTRY = Set.of("file", "name", "expect", "eject", "single_host");
    /** The most scenarios a suite file may add. */
    static final int MAX_SCENARIOS = 100;

    /** The scenarios read and whether they replace the built-in suite. */
    public record Read(List<SuiteScenario> scenarios, boolean replace) {}

    private SuiteFile() {}

    public static Read read(Path file) {
        String text = text(file, "--suite");
        Located root = YamlTree.parse(text, file.toString());
        Map<String, Located> top = map(root, "the suite file", TOP);
        boolean replace = false;
        if (top.containsKey("suite")) {
            Object mode = top.get("suite").value();
            if ("replace".equals(mode)) {
                replace = true;
            } else if (!"extend".equals(mode)) {
                throw new InputException(top.get("suite").origin() + ": suite: '" + mode + "' is not allowed; expected "
                        + "extend or replace");
            }
        }
        Located list = top.get("scenarios");
        if (list == null || !(list.value() instanceof List<?> items) || items.isEmpty()) {
            throw new InputException(
                    root.origin() + ": scenarios: expected a list of scenarios, each with file: and " + "expect:");
        }
        if (items.size() > MAX_SCENARIOS) {
            throw new InputException(
                    list.origin() + ": scenarios: " + items.size() + " scenarios; at most " + MAX_SCENARIOS);
        }
        List<SuiteScenario> out = new ArrayList<>();
        for (Object o : items) {
            out.add(entry((Located) o, file));
        }
        return new Read(out, replace);
    }

    private static SuiteScenario entry(Located node, Path suiteFile) {
        Map<String, Located> e = map(node, "a scenario of the suite", ENTRY);
        Located fileNode = e.get("file");
        if (fileNode == null || !(fileNode.value() instanceof String name)) {
            throw new InputException(node.origin() + ": file: expected the path of a scenario file");
        }
        Path path = inside(suiteFile, name, fileNode.origin());
        Scenario s = ScenarioReader.read(text(path, fileNode.origin() + ": file"), path.toString(), List.of())
                .scenario();
        Located expectNode = e.get("expect");
        Expectation expect = null;
        for (Expectation x : Expectation.values()) {
            if (expectNode != null && x.key().equals(expectNode.value())) {
                expect = x;
            }
        }
        if (expect == null) {
            throw new InputException((expectNode == null ? node : expectNode).origin()
                    + ": expect: expected eject, none " + "or at_most");
        }
        Set<String> eject = new LinkedHashSet<>();
        if (e.containsKey("eject")) {
            if (!(e.get("eject").value() instanceof List<?> hosts)) {
                throw new InputException(e.get("eject").origin() + ": eject: expected a list of host names");
            }
            for (Object h : hosts) {
                Object v = ((Located) h).value();
                if (!(v instanceof String hostName) || !s.cluster().hosts().contains(hostName)) {
                    throw new InputException(
                            ((Located) h).origin() + ": eject: '" + v + "' is not a host of " + path.getFileName());
                }
                eject.add(hostName);
            }
        } else if (expect != Expectation.NONE) {
            // a degraded fault's hosts answer 200 with x-envoy-degraded: nothing there to eject
            s.faults().stream().filter(f -> !f.degraded()).forEach(f -> eject.addAll(f.hosts()));
        }
        if (expect == Expectation.NONE) {
            eject.clear();
        }
        boolean single = e.containsKey("single_host")
                ? Boolean.TRUE.equals(e.get("single_host").value())
                : eject.size() == 1;
        long start = Long.MAX_VALUE;
        long end = 0;
        for (FaultSpec f : s.faults()) {
            start = Math.min(start, f.startNanos());
            end = Math.max(end, f.endNanos());
        }
        if (s.faults().isEmpty()) {
            start = 0;
            end = s.durationNanos();
        }
        String label = e.containsKey("name") ? String.valueOf(e.get("name").value()) : s.name();
        Scenario named = s.toBuilder().name(label).build();
        return new SuiteScenario(label, "from " + path.getFileName(), expect, named, eject, single, start, end);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Located> map(Located node, String what, Set<String> keys) {
        if (!(node.value() instanceof Map<?, ?> m)) {
            throw new InputException(node.origin() + ": expected " + what + " as a mapping of "
                    + String.join(", ", new TreeSet<>(keys)));
        }
        Map<String, Located> out = (Map<String, Located>) m;
        for (Map.Entry<String, Located> x : out.entrySet()) {
            if (!keys.contains(x.getKey())) {
                throw new InputException(x.getValue().origin() + ": unknown key '" + x.getKey() + "' in " + what
                        + "; expected " + String.join(", ", new TreeSet<>(keys)));
            }
        }
        return out;
    }

    static String text(Path path, String what) {
        return TextFiles.read(path, what);
    }

    /**
     * A scenario file the suite names: resolved in the suite file's directory, and refused when it lies outside
     * it (an absolute path, {@code ..}, or a link that leads out), so a suite from elsewhere cannot make the
     * lab read, and quote in an error, any file on the machine. Scenarios from other places are given on the
     * command line.
     */
    static Path inside(Path suiteFile, String name, String origin) {
        Path dir = suiteFile.toAbsolutePath().normalize().getParent();
        Path named = TextFiles.path(name, origin + ": file");
        Path path = dir.resolve(named).normalize();
        boolean inside = path.startsWith(dir);
        if (inside && Files.exists(path)) {
            try {
                inside = path.toRealPath().startsWith(dir.toRealPath());
            } catch (IOException e) {
                inside = false;
            }
        }
        if (!inside) {
            throw new InputException(origin + ": file: '" + Wording.shortPrefix(name) + "' is outside the suite's "
                    + "directory " + dir + "; a suite names scenario files beside it or below it");
        }
        return path;
    }
}
