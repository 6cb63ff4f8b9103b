package dev.outlierlab.check;

import dev.outlierlab.engine.envoy.EnvoyVersion;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The result of checking one or more files: every cluster they hold and every finding, in file order, plus
 * the options the numbers depend on. A finding that holds, word for word and from the same line, for several
 * clusters (a DestinationRule and the subsets that inherit its outlierDetection) is kept once, with the other
 * clusters in {@link Finding#alsoAppliesTo()}. Plain data for the renderers (text, JSON, SARIF).
 *
 * @param file  what was checked, as given: a file name, {@code -} for standard input, or a list
 * @param hosts the {@code --hosts} given, or null
 * @param rps   the {@code --rps} given, or null
 * @param clients the {@code --clients} given (callers sharing {@code rps}, each its own detector), 1 by default
 * @param files every file checked, with why it could not be read where it could not
 */
public record CheckReport(
        String file,
        List<CheckTarget> targets,
        List<Finding> findings,
        Integer hosts,
        Long rps,
        int clients,
        List<CheckedFile> files) {
    public CheckReport {
        targets = List.copyOf(targets);
        findings = List.copyOf(findings);
        files = List.copyOf(files);
    }

    /**
     * One file checked, as named on the command line or found in a directory, in reading order.
     *
     * @param notRead why it could not be read (its {@code file-not-read} message), or null when it was read
     * @param line    the line the reason names (1 where it names none); 0 when the file was read
     */
    public record CheckedFile(String path, String notRead, int line) {}

    /** A report for one caller. */
    public CheckReport(String file, List<CheckTarget> targets, List<Finding> findings, Integer hosts, Long rps) {
        this(file, targets, findings, hosts, rps, 1, List.of(new CheckedFile(file, null, 0)));
    }

    /** Checks every target of one file. */
    public static CheckReport of(String file, List<CheckTarget> targets, Integer hosts, Long rps) {
        return ofFiles(file, List.of(new CheckInputs.Loaded(targets, List.of(), file)), hosts, rps);
    }

    /** Checks every target of every file read, under the default Envoy release's rules. */
    public static CheckReport ofFiles(String label, List<CheckInputs.Loaded> inputs, Integer hosts, Long rps) {
        return ofFiles(label, inputs, hosts, rps, EnvoyVersion.DEFAULT);
    }

    /** Checks every target of every file read, under the rules of an Envoy release. */
    public static CheckReport ofFiles(
            String label, List<CheckInputs.Loaded> inputs, Integer hosts, Long rps, EnvoyVersion version) {
        return ofFiles(label, inputs, hosts, rps, version, 1);
    }

    /** Checks every target of every file read, with {@code rps} shared over {@code clients} callers. */
    public static CheckReport ofFiles(
            String label, List<CheckInputs.Loaded> inputs, Integer hosts, Long rps, EnvoyVersion version, int clients) {
        List<CheckTarget> targets = new ArrayList<>();
        List<Finding> all = new ArrayList<>();
        // a finding said word for word from the same line is looked up by what it says, not by a scan of all
        // the findings before it: 100,000 clusters stay linear
        Map<Finding.Key, Integer> said = new HashMap<>();
        Map<Integer, Set<String>> alsoFor = new HashMap<>();
        List<CheckedFile> files = new ArrayList<>();
        for (CheckInputs.Loaded in : inputs) {
            if (in.source() != null) {
                files.add(in.fileFindings().stream()
                        .filter(f -> f.rule() == Rule.FILE_NOT_READ)
                        .findFirst()
                        .map(f -> new CheckedFile(in.source(), f.message().replaceFirst("^not read: ", ""), f.line()))
                        .orElse(new CheckedFile(in.source(), null, 0)));
            }
            all.addAll(in.fileFindings());
            targets.addAll(in.targets());
            for (CheckTarget t : in.targets()) {
                for (Finding f : ConfigChecker.check(t, hosts, rps, version, clients)) {
                    Integer earlier = f.target().isEmpty() ? null : said.get(f.key());
                    if (earlier != null && !all.get(earlier).target().equals(f.target())) {
                        alsoFor.computeIfAbsent(earlier, k -> new LinkedHashSet<>())
                                .add(f.target());
                        continue;
                    }
                    if (earlier == null && !f.target().isEmpty()) {
                        said.put(f.key(), all.size());
                    }
                    all.add(f);
                }
            }
        }
        alsoFor.forEach((i, more) -> {
            Finding f = all.get(i);
            all.set(i, f.alsoFor(more));
        });
        // the files that could not be read come last, after everything that could be checked
        List<Finding> ordered = new ArrayList<>(all.size());
        all.stream().filter(f -> f.rule() != Rule.FILE_NOT_READ).forEach(ordered::add);
        all.stream().filter(f -> f.rule() == Rule.FILE_NOT_READ).forEach(ordered::add);
        return new CheckReport(label, targets, ordered, hosts, rps, clients, files);
    }

    /** The files among several that could not be read (their {@link Rule#FILE_NOT_READ} findings). */
    public List<Finding> unreadable() {
        return findings.stream().filter(f -> f.rule() == Rule.FILE_NOT_READ).toList();
    }

    /**
     * The worst status: 2 when a file could not be read (bad input), else 1 when a finding is at or above
     * {@code failOn}, else 0.
     */
    public int exitCode(Severity failOn) {
        if (!unreadable().isEmpty()) {
            return 2;
        }
        for (Finding f : findings) {
            if (f.severity().atLeast(failOn)) {
                return 1;
            }
        }
        return 0;
    }

    public long count(Severity severity) {
        return findings.stream().filter(f -> f.severity() == severity).count();
    }
}
