package dev.outlierlab.bench;

import com.sun.management.ThreadMXBean;
import dev.outlierlab.check.CheckInputs;
import dev.outlierlab.check.Severity;
import dev.outlierlab.check.StreamedReport;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.report.FindingsText;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code check}'s cost against the number of clusters in one file: an Envoy list of N clusters (one per line, each
 * with outlier detection, so that each gets its own findings) is read, checked and rendered as the text report,
 * as {@code outlier-lab check FILE} does (streamed: {@link StreamedReport}), for N = 1,000, 10,000 and 100,000. It prints the thread CPU time per
 * cluster at each size (median of the runs) and its ratio to the figure at 1,000: a linear path keeps the ratio
 * near 1, where the former merge of each finding with a scan of all the findings before it grew it with N
 * (20,000 clusters took over 200 s). {@link ReferenceLoop}'s median is printed beside each row, for how fast
 * the machine was meanwhile. Usage: {@code java -cp bench/target/benchmarks.jar dev.outlierlab.bench.CheckScaling}.
 */
public final class CheckScaling {
    private CheckScaling() {}

    /** N clusters as an Envoy JSON list, one cluster per line. */
    static String clusters(int n) {
        StringBuilder sb = new StringBuilder(n * 64).append("[\n");
        for (int i = 0; i < n; i++) {
            sb.append("{\"name\":\"c")
                    .append(i)
                    .append("\",\"outlier_detection\":{\"consecutive_5xx\":")
                    .append(2 + i % 5)
                    .append("}}")
                    .append(i + 1 < n ? ",\n" : "\n");
        }
        return sb.append("]\n").toString();
    }

    /**
     * One check of the text, as the CLI runs it (the text report written as it is made, each cluster's findings
     * worked out as it is written); returns the report's length (so that nothing is optimised away).
     */
    static long checkOnce(String text) {
        CheckInputs.Loaded loaded = CheckInputs.read(text, "clusters.json", null, false);
        StreamedReport report =
                StreamedReport.of("clusters.json", List.of(loaded), null, null, EnvoyVersion.DEFAULT, 1);
        long[] chars = {0};
        FindingsText.render(report, new Appendable() {
            @Override
            public Appendable append(CharSequence s) {
                chars[0] += s.length();
                return this;
            }

            @Override
            public Appendable append(CharSequence s, int start, int end) {
                chars[0] += end - start;
                return this;
            }

            @Override
            public Appendable append(char c) {
                chars[0]++;
                return this;
            }
        });
        return chars[0] + report.count(Severity.NOTE);
    }

    public static void main(String[] args) {
        int[] sizes = {1_000, 10_000, 100_000};
        int[] runs = {15, 5, 3};
        ThreadMXBean mx = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long sink = 0;
        for (int i = 0; i < 3; i++) {
            sink += checkOnce(clusters(10_000));
        }
        System.out.println("| clusters | CPU ms per check (median) | CPU us per cluster | per cluster / at 1,000 "
                + "| reference loop ns per iteration (median) |");
        System.out.println("|---:|---:|---:|---:|---:|");
        double base = 0;
        for (int s = 0; s < sizes.length; s++) {
            String text = clusters(sizes[s]);
            double[] ms = new double[runs[s]];
            double[] ref = new double[runs[s]];
            for (int r = 0; r < runs[s]; r++) {
                long before = mx.getCurrentThreadCpuTime();
                sink += checkOnce(text);
                ms[r] = (mx.getCurrentThreadCpuTime() - before) / 1e6;
                long refBefore = mx.getCurrentThreadCpuTime();
                long iterations = ReferenceLoop.run();
                ref[r] = (double) (mx.getCurrentThreadCpuTime() - refBefore) / iterations;
            }
            double median = median(ms);
            double perCluster = median * 1000 / sizes[s];
            if (s == 0) {
                base = perCluster;
            }
            System.out.println(String.format(
                    Locale.ROOT,
                    "| %,d | %.0f | %.1f | %.2f | %.1f |",
                    sizes[s],
                    median,
                    perCluster,
                    perCluster / base,
                    median(ref)));
        }
        System.out.println("(check value " + sink + ")");
    }

    private static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
