package dev.outlierlab.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs {@link LiveBenchmark} with 1, 2 and 4 threads in one go, with JMH's GC profiler, and prints one
 * Markdown table: nanoseconds per operation (per thread) and bytes allocated per operation, side by side.
 * Usage: {@code java -cp bench/target/benchmarks.jar dev.outlierlab.bench.LiveBenchmarks [regex]}.
 */
public final class LiveBenchmarks {
    private LiveBenchmarks() {}

    public static void main(String[] args) throws RunnerException {
        String include = args.length > 0 ? args[0] : LiveBenchmark.class.getSimpleName();
        int[] threads = {1, 2, 4};
        Map<String, String[]> rows = new LinkedHashMap<>();
        for (int t = 0; t < threads.length; t++) {
            Options options = new OptionsBuilder()
                    .include(include)
                    .threads(threads[t])
                    .addProfiler(GCProfiler.class)
                    .build();
            Collection<RunResult> results = new Runner(options).run();
            for (RunResult r : results) {
                String name = r.getParams().getBenchmark();
                name = name.substring(name.lastIndexOf('.') + 1);
                String[] row = rows.computeIfAbsent(name, k -> new String[threads.length * 2]);
                Result<?> primary = r.getPrimaryResult();
                row[t * 2] = String.format(Locale.ROOT, "%.1f ± %.1f", primary.getScore(), primary.getScoreError());
                Result<?> alloc = r.getSecondaryResults().get("gc.alloc.rate.norm");
                row[t * 2 + 1] = alloc == null ? "-" : String.format(Locale.ROOT, "%.1f", alloc.getScore());
            }
        }
        List<String> lines = new ArrayList<>();
        lines.add("| Benchmark | 1 thread ns/op | B/op | 2 threads ns/op | B/op | 4 threads ns/op | B/op |");
        lines.add("|---|---:|---:|---:|---:|---:|---:|");
        for (Map.Entry<String, String[]> e : rows.entrySet()) {
            lines.add("| `" + e.getKey() + "` | " + String.join(" | ", e.getValue()) + " |");
        }
        System.out.println();
        lines.forEach(System.out::println);
    }
}
