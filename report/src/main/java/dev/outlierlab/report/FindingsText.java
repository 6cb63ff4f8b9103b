package dev.outlierlab.report;

import dev.outlierlab.check.CheckReport;
import dev.outlierlab.check.CheckTarget;
import dev.outlierlab.check.Finding;
import dev.outlierlab.check.Rule;
import dev.outlierlab.check.Severity;
import dev.outlierlab.check.StreamedReport;
import dev.outlierlab.config.Wording;
import dev.outlierlab.config.istio.TranslatedField;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.function.ToLongFunction;

/**
 * {@code check --format text}: per cluster, its findings with severity, id, the sentence, the numbers and
 * the suggested fix; for a DestinationRule, the Envoy settings istiod derives and where each came from
 * (only those an Istio field or rule decides; the rest are Envoy's defaults).
 */
public final class FindingsText {
    private static final int WIDTH = 100;

    private FindingsText() {}

    /** The whole report as one string (for one file and tests; the command streams it with {@link #render(CheckReport, Appendable)}). */
    public static String render(CheckReport report) {
        StringBuilder sb = new StringBuilder();
        render(report, sb);
        return sb.toString();
    }

    /**
     * Writes the report to {@code sink} as it goes, cluster by cluster. An {@link IOException} from the sink is
     * rethrown as {@link UncheckedIOException}.
     */
    public static void render(CheckReport report, Appendable sink) {
        // each cluster's findings, and the clusters whose findings it shares, looked up rather than scanned:
        // a report of 100,000 clusters stays linear
        Map<List<String>, List<Finding>> byTarget = new HashMap<>();
        Map<List<String>, Set<String>> coveredBy = new HashMap<>();
        for (Finding f : report.findings()) {
            byTarget.computeIfAbsent(List.of(f.target(), f.file()), k -> new ArrayList<>())
                    .add(f);
            for (String other : f.alsoAppliesTo()) {
                coveredBy
                        .computeIfAbsent(List.of(other, f.file()), k -> new LinkedHashSet<>())
                        .add(f.target());
            }
        }
        List<CheckTarget> targets = report.targets();
        render(
                new Out(sink),
                report.file(),
                targets,
                report.hosts(),
                report.rps(),
                report.clients(),
                report.findings(),
                i -> targets.get(i).name().isEmpty()
                        ? List.of()
                        : byTarget.getOrDefault(
                                List.of(targets.get(i).name(), targets.get(i).file()), List.of()),
                i -> coveredBy.get(List.of(targets.get(i).name(), targets.get(i).file())),
                report.unreadable(),
                report::count);
    }

    /**
     * Writes the report to {@code sink} as it goes, each cluster's findings worked out as it is written
     * ({@link StreamedReport}), so that neither the report (over 100 MB of text for 100,000 clusters) nor every
     * finding is held in memory at once. The text is the same as {@link #render(CheckReport)}'s.
     */
    public static void render(StreamedReport report, Appendable sink) {
        if (report.inMemory() != null) {
            render(report.inMemory(), sink);
            return;
        }
        List<CheckTarget> targets = report.targets();
        render(
                new Out(sink),
                report.file(),
                targets,
                report.hosts(),
                report.rps(),
                report.clients(),
                report.fileFindings(),
                report::findingsOf,
                report::coveredBy,
                report.unreadable(),
                report::count);
    }

    /**
     * @param top       findings in report order; those without a cluster (but for unreadable files) are listed first
     * @param own       target index -> its findings
     * @param covering  target index -> the clusters whose findings it shares, or null
     */
    private static void render(
            Out out,
            String file,
            List<CheckTarget> targets,
            Integer hosts,
            Long rps,
            int clients,
            List<Finding> top,
            IntFunction<List<Finding>> own,
            IntFunction<Set<String>> covering,
            List<Finding> unread,
            ToLongFunction<Severity> count) {
        boolean gateways = !targets.isEmpty() && targets.stream().allMatch(t -> t.gateway() != null);
        // a finding about a part of a file that is not a cluster (an nginx upstream, a HAProxy backend) is shown
        // under that part's name and the file
        Set<List<String>> clusters = new HashSet<>();
        targets.forEach(t -> clusters.add(List.of(t.name(), t.file())));
        Set<List<String>> parts = new LinkedHashSet<>();
        for (Finding f : top) {
            if (!f.target().isEmpty()
                    && f.rule() != Rule.FILE_NOT_READ
                    && !clusters.contains(List.of(f.target(), f.file()))) {
                parts.add(List.of(f.target(), f.file()));
            }
        }
        out.append("outlier-lab check ").append(Wording.printable(file)).append(": ");
        if (targets.isEmpty() && !parts.isEmpty()) {
            out.append(parts.size()).append(parts.size() == 1 ? " proxy configuration" : " proxy configurations");
        } else {
            out.append(targets.size())
                    .append(
                            gateways
                                    ? (targets.size() == 1 ? " gateway configuration" : " gateway configurations")
                                    : targets.size() == 1 ? " cluster" : " clusters");
        }
        List<String> given = new ArrayList<>();
        if (hosts != null) {
            given.add(hosts + (gateways ? " endpoints" : " hosts"));
        }
        if (rps != null) {
            given.add(rps + " rps"
                    + (clients > 1
                            ? " over " + clients + " callers, " + HingesText.amount((double) rps / clients)
                                    + " rps each"
                            : ""));
        } else if (clients > 1) {
            given.add(clients + " callers");
        }
        out.append(given.isEmpty() ? "" : " (" + String.join(", ", given) + ")").append("\n");
        String fileShown = null;
        for (Finding f : top) {
            List<String> part = List.of(f.target(), f.file());
            if (f.rule() == Rule.FILE_NOT_READ || !f.target().isEmpty() && clusters.contains(part)) {
                continue;
            }
            String heading = f.target().isEmpty() ? f.file() : f.target() + "  " + f.file();
            if (!heading.equals(fileShown)) {
                out.append('\n').append(Wording.printable(heading)).append('\n');
                fileShown = heading;
            }
            finding(out, f);
        }
        for (int i = 0; i < targets.size(); i++) {
            CheckTarget t = targets.get(i);
            out.append('\n')
                    .append(Wording.printable(t.name()))
                    .append("  ")
                    .append(Wording.printable(t.file()))
                    .append(':')
                    .append(t.line());
            String unit = t.gateway() != null ? " endpoint" : " host";
            out.append(
                            t.hosts() != null
                                    ? "  " + (t.hostsAtLeast() ? "at least " : "") + t.hosts() + unit
                                            + (t.hosts() == 1 ? "" : "s") + " in the file"
                                    : "")
                    .append('\n');
            List<TranslatedField> decided = new ArrayList<>();
            for (TranslatedField f : t.translation()) {
                if (!f.from().startsWith("Envoy default (no Istio field")) {
                    decided.add(f);
                }
            }
            if (!decided.isEmpty()) {
                out.append("  translated by ")
                        .append(t.style().translatedBy())
                        .append(" (other fields: Envoy defaults):\n");
                int w = decided.stream()
                                .mapToInt(
                                        f -> f.envoyField().length() + f.value().length())
                                .max()
                                .orElse(0)
                        + 3;
                for (TranslatedField f : decided) {
                    String lhs = f.envoyField() + " = " + f.value();
                    out.append("    ")
                            .append(lhs)
                            .append(" ".repeat(Math.max(1, w - lhs.length())))
                            .append("<- ")
                            .append(f.from())
                            .append('\n');
                }
            }
            List<Finding> findings = own.apply(i);
            findings.forEach(f -> finding(out, f));
            Set<String> coveringThis = covering.apply(i);
            if (coveringThis != null) {
                out.append("  see ").append(String.join(", ", coveringThis)).append(" for the findings it shares\n");
            } else if (findings.isEmpty()) {
                out.append("  no findings\n");
            }
        }
        if (!unread.isEmpty()) {
            out.append('\n')
                    .append(unread.size())
                    .append(unread.size() == 1 ? " file" : " files")
                    .append(" not read:\n");
            for (Finding f : unread) {
                out.append("  ")
                        .append(Wording.printable(f.file()))
                        .append(f.line() > 0 ? ":" + f.line() : "")
                        .append(": ")
                        .append(Wording.printable(f.message().replaceFirst("^not read: ", "")))
                        .append('\n');
            }
        }
        out.append('\n')
                .append(count(count, Severity.ERROR, "error"))
                .append(", ")
                .append(count(count, Severity.WARNING, "warning"))
                .append(", ")
                .append(count(count, Severity.NOTE, "note"))
                .append('\n');
    }

    /** An {@link Appendable} whose {@link IOException}s are unchecked, so that the report reads as appends. */
    private static final class Out {
        private final Appendable sink;

        Out(Appendable sink) {
            this.sink = sink;
        }

        Out append(CharSequence s) {
            try {
                sink.append(s);
                return this;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        Out append(char c) {
            try {
                sink.append(c);
                return this;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        Out append(long n) {
            return append(Long.toString(n));
        }
    }

    private static void finding(Out out, Finding f) {
        String head = String.format(
                Locale.ROOT, "  %-7s %s", f.severity().level(), f.rule().id());
        out.append(head).append(" (line ").append(f.line()).append(")\n");
        wrap(out, f.message(), "          ");
        if (!f.alsoAppliesTo().isEmpty()) {
            wrap(out, "also applies to: " + String.join(", ", f.alsoAppliesTo()), "          ");
        }
        if (!f.numbers().isEmpty()) {
            wrap(out, "numbers: " + numbers(f.numbers()), "          ");
        }
        if (f.fix() != null) {
            out.append("          fix:\n");
            for (String line : f.fix().split("\n")) {
                out.append("            ").append(line).append('\n');
            }
        }
    }

    static String numbers(Map<String, Object> numbers) {
        List<String> parts = new ArrayList<>();
        numbers.forEach((k, v) -> parts.add(k + " "
                + (v instanceof Double d && d == Math.rint(d) ? Long.toString(d.longValue()) : String.valueOf(v))));
        return String.join(", ", parts);
    }

    private static String count(ToLongFunction<Severity> count, Severity s, String word) {
        long n = count.applyAsLong(s);
        return n + " " + word + (n == 1 ? "" : "s");
    }

    private static void wrap(Out out, String text, String indent) {
        StringBuilder line = new StringBuilder(indent);
        for (String word : text.split(" ")) {
            if (line.length() > indent.length() && line.length() + 1 + word.length() > WIDTH) {
                out.append(line).append('\n');
                line = new StringBuilder(indent);
            }
            if (line.length() > indent.length()) {
                line.append(' ');
            }
            line.append(word);
        }
        out.append(line).append('\n');
    }
}
