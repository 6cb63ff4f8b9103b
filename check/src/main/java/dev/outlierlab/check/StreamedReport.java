package dev.outlierlab.check;

import dev.outlierlab.engine.envoy.EnvoyVersion;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The same report as {@link CheckReport#ofFiles}, for a renderer that writes it cluster by cluster, without holding
 * every finding: a cluster's findings are worked out again when it is written ({@link ConfigChecker} is a pure
 * function of the target and the options), so memory holds the targets and a few numbers per line, not the 200,000
 * findings of a 100,000-cluster file. A finding is kept once with {@link Finding#alsoAppliesTo()} when it holds word
 * for word from the same line for several clusters ({@link CheckReport}'s rule); such findings can only come from a
 * line where two clusters have findings, so a first pass notes those lines and only their findings are compared
 * whole. Inputs where the cluster-by-cluster listing could differ from {@link CheckReport}'s (two clusters of one
 * name in a file, a finding without a cluster) are checked in memory instead: {@link #inMemory()} is that report.
 */
public final class StreamedReport {
    private final String file;
    private final List<CheckInputs.Loaded> inputs;
    private final Integer hosts;
    private final Long rps;
    private final EnvoyVersion version;
    private final int clients;
    private final List<CheckTarget> targets = new ArrayList<>();
    private final CheckReport inMemory;
    /** (target index, ordinal among its findings) of the findings said once for several clusters, and those clusters. */
    private final Map<Long, Set<String>> alsoFor = new HashMap<>();
    /** The same findings' later copies, which are left out. */
    private final Set<Long> covered = new HashSet<>();
    /** Per (cluster, file): the clusters whose findings it shares, by where their finding is in the report. */
    private final Map<List<String>, TreeMap<Long, String>> coveredBy = new HashMap<>();

    private final long[] counts = new long[Severity.values().length];

    private record Line(String file, int line) {}

    private StreamedReport(
            String file, List<CheckInputs.Loaded> inputs, Integer hosts, Long rps, EnvoyVersion version, int clients) {
        this.file = file;
        this.inputs = List.copyOf(inputs);
        this.hosts = hosts;
        this.rps = rps;
        this.version = version;
        this.clients = clients;
        inputs.forEach(in -> targets.addAll(in.targets()));
        this.inMemory = needsMemory() ? CheckReport.ofFiles(file, inputs, hosts, rps, version, clients) : null;
        if (inMemory == null) {
            compare();
        }
    }

    /** Checks every target of every file read, with {@code rps} shared over {@code clients} callers. */
    public static StreamedReport of(
            String file, List<CheckInputs.Loaded> inputs, Integer hosts, Long rps, EnvoyVersion version, int clients) {
        return new StreamedReport(file, inputs, hosts, rps, version, clients);
    }

    /** The in-memory report when the inputs need one (see the class comment), else null. */
    public CheckReport inMemory() {
        return inMemory;
    }

    private boolean needsMemory() {
        Set<List<String>> names = new HashSet<>();
        for (CheckTarget t : targets) {
            if (t.name().isEmpty() || !names.add(List.of(t.name(), t.file()))) {
                return true;
            }
        }
        return false;
    }

    /** First pass: the lines two clusters have findings on; second: those findings compared whole, and the counts. */
    private void compare() {
        Map<Line, Integer> firstAt = new HashMap<>();
        Set<Line> shared = new HashSet<>();
        for (int i = 0; i < targets.size(); i++) {
            for (Finding f : findings(i)) {
                if (f.target().isEmpty()) {
                    continue;
                }
                Line at = new Line(f.file(), f.line());
                Integer first = firstAt.putIfAbsent(at, i);
                if (first != null && first != i) {
                    shared.add(at);
                }
            }
        }
        firstAt.clear();
        Map<Finding.Key, Long> said = new HashMap<>();
        Map<Long, String> saidFor = new HashMap<>();
        for (CheckInputs.Loaded in : inputs) {
            in.fileFindings().forEach(f -> counts[f.severity().ordinal()]++);
        }
        for (int i = 0; i < targets.size(); i++) {
            List<Finding> own = findings(i);
            for (int k = 0; k < own.size(); k++) {
                Finding f = own.get(k);
                if (f.target().isEmpty()) {
                    throw new IllegalStateException("a finding without a cluster from cluster "
                            + targets.get(i).name());
                }
                long id = ((long) i << 20) | k;
                if (shared.contains(new Line(f.file(), f.line()))) {
                    Long earlier = said.get(f.key());
                    if (earlier != null && !saidFor.get(earlier).equals(f.target())) {
                        alsoFor.computeIfAbsent(earlier, x -> new LinkedHashSet<>())
                                .add(f.target());
                        coveredBy
                                .computeIfAbsent(List.of(f.target(), f.file()), x -> new TreeMap<>())
                                .putIfAbsent(earlier, saidFor.get(earlier));
                        covered.add(id);
                        continue;
                    }
                    if (earlier == null) {
                        said.put(f.key(), id);
                        saidFor.put(id, f.target());
                    }
                }
                counts[f.severity().ordinal()]++;
            }
        }
    }

    private List<Finding> findings(int i) {
        List<Finding> out = ConfigChecker.check(targets.get(i), hosts, rps, version, clients);
        if (out.size() >= 1 << 20) {
            throw new IllegalStateException("more findings than the report numbers for cluster "
                    + targets.get(i).name());
        }
        return out;
    }

    public String file() {
        return file;
    }

    public List<CheckTarget> targets() {
        return List.copyOf(targets);
    }

    public Integer hosts() {
        return hosts;
    }

    public Long rps() {
        return rps;
    }

    public int clients() {
        return clients;
    }

    /** The findings about files rather than clusters, in file order, the unreadable files' among them. */
    public List<Finding> fileFindings() {
        List<Finding> out = new ArrayList<>();
        inputs.forEach(in -> out.addAll(in.fileFindings()));
        return out;
    }

    /** Target {@code i}'s findings as the report keeps them: worked out again, shared ones said once. */
    public List<Finding> findingsOf(int i) {
        List<Finding> own = findings(i);
        List<Finding> out = new ArrayList<>(own.size());
        for (int k = 0; k < own.size(); k++) {
            long id = ((long) i << 20) | k;
            if (covered.contains(id)) {
                continue;
            }
            Set<String> more = alsoFor.get(id);
            out.add(more == null ? own.get(k) : own.get(k).alsoFor(more));
        }
        return out;
    }

    /** The clusters whose findings target {@code i} shares, or null. */
    public Set<String> coveredBy(int i) {
        CheckTarget t = targets.get(i);
        TreeMap<Long, String> by = coveredBy.get(List.of(t.name(), t.file()));
        return by == null ? null : new LinkedHashSet<>(by.values());
    }

    /** The files among several that could not be read (their {@link Rule#FILE_NOT_READ} findings). */
    public List<Finding> unreadable() {
        return fileFindings().stream()
                .filter(f -> f.rule() == Rule.FILE_NOT_READ)
                .toList();
    }

    public long count(Severity severity) {
        return counts[severity.ordinal()];
    }

    /** As {@link CheckReport#exitCode}: 2 when a file could not be read, else 1 when a finding is at or above {@code failOn}. */
    public int exitCode(Severity failOn) {
        if (inMemory != null) {
            return inMemory.exitCode(failOn);
        }
        if (!unreadable().isEmpty()) {
            return 2;
        }
        for (Severity s : Severity.values()) {
            if (s.atLeast(failOn) && counts[s.ordinal()] > 0) {
                return 1;
            }
        }
        return 0;
    }
}
