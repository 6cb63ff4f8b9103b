package dev.outlierlab.bench;

import dev.outlierlab.tune.CurrentSettings;
import dev.outlierlab.tune.Evaluation;
import dev.outlierlab.tune.PlannedWork;
import dev.outlierlab.tune.RunCost;
import dev.outlierlab.tune.RunExecutor;
import dev.outlierlab.tune.RunFigures;
import dev.outlierlab.tune.SearchPilot;
import dev.outlierlab.tune.Target;
import dev.outlierlab.tune.TuneRequest;
import dev.outlierlab.tune.TuneRuns;
import dev.outlierlab.tune.TuneService;
import dev.outlierlab.tune.Tuner;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * What {@code tune}'s searches cost in CPU against the work limit's estimate ({@link RunCost}'s weights, decided by
 * {@code SearchBudget}). Each search is run as {@code tune} runs it (the default suite, 8 seeds, 2 threads, its pilot),
 * each run's thread CPU time measured on its worker thread around the run alone. Prints, per run, its counts of each
 * kind of work ({@link RunCost.Kind}) and its CPU time ({@code run,...} lines), and per search the pilot's estimate and
 * the bound before running against the worker threads' CPU and the process's ({@code search,...} lines, with a
 * readable {@code #} line: estimate, CPU, ratio). {@code fit FILE...} reads such output and fits each kind's cost in
 * nanoseconds (nonnegative least squares of the runs' counts against their CPU, each run weighed by the inverse of its
 * CPU time, so that dear and cheap runs count alike in proportion), then prints every search's estimate against its
 * CPU at the fitted costs and at the costs compiled in: the lines to paste into {@link RunCost.Kind}.
 *
 * <p>Usage: {@code java -XX:TieredStopAtLevel=1 -cp bench/target/benchmarks.jar dev.outlierlab.bench.TuneRate
 * [quick | all | many-callers | TARGET:HOSTS:RPS:CLIENTS ...] > runs.csv}, then {@code java -cp
 * bench/target/benchmarks.jar dev.outlierlab.bench.TuneRate fit runs.csv ...}. C1 only, as {@code ./outlier-lab tune}
 * runs. The first search of a JVM pays for loading and compiling its code; {@code quick} starts with a small search
 * whose figures are not printed.
 */
public final class TuneRate {
    private TuneRate() {}

    /** The searches of {@code quick}: the shapes whose costs differ most, each a few CPU seconds to two minutes. */
    static final List<String> QUICK = List.of(
            "envoy:8:2000:1",
            "envoy:6:600:1",
            "grpc:5:100:1",
            "istio:12:400:5",
            "gateway:4:200:1",
            "envoy:20:20000:20",
            "envoy:200:20000:1");

    /** The search of {@code many-callers}: issue 38's, about 8 CPU minutes. */
    static final String MANY_CALLERS = "envoy:50:50000:50";

    static final int SEEDS = 8;
    static final int THREADS = 2;

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("fit")) {
            List<String> lines = new ArrayList<>();
            for (int i = 1; i < args.length; i++) {
                lines.addAll(Files.readAllLines(Path.of(args[i])));
            }
            fit(lines);
            return;
        }
        List<String> shapes = new ArrayList<>();
        for (String a : args.length == 0 ? new String[] {"quick"} : args) {
            switch (a) {
                case "quick" -> shapes.addAll(QUICK);
                case "many-callers" -> shapes.add(MANY_CALLERS);
                case "all" -> {
                    shapes.addAll(QUICK);
                    shapes.add(MANY_CALLERS);
                }
                default -> shapes.add(a);
            }
        }
        System.out.println("# kinds: " + String.join(",", kindNames()));
        System.out.println("# warm-up: envoy:3:100:1, not printed");
        search("envoy:3:100:1", false);
        for (String shape : shapes) {
            search(shape, true);
        }
    }

    private static List<String> kindNames() {
        List<String> out = new ArrayList<>();
        for (RunCost.Kind k : RunCost.Kind.values()) {
            out.add(k.name());
        }
        return out;
    }

    static TuneRequest request(String shape) {
        String[] p = shape.split(":");
        Target target = Target.byFlag(p[0]);
        int hosts = Integer.parseInt(p[1]);
        return TuneService.request(new TuneService.Given(
                CurrentSettings.defaults("svc", target, hosts),
                hosts,
                Long.parseLong(p[2]),
                Integer.parseInt(p[3]),
                null,
                null,
                null,
                "default",
                SEEDS,
                null,
                0,
                Evaluation.DEFAULT_MAX_ADDED_PER_THOUSAND,
                THREADS,
                new ArrayList<>()));
    }

    /** One search: its runs measured, its pilot's estimate and bound printed beside the CPU they cost. */
    static void search(String shape, boolean print) throws Exception {
        TuneRequest req = request(shape);
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        List<String> runs = new ArrayList<>();
        long[] threadCpu = new long[1];
        ExecutorService pool = Executors.newFixedThreadPool(THREADS, r -> {
            Thread t = new Thread(r, "tune");
            t.setDaemon(true);
            return t;
        });
        RunExecutor measured = (jobs, progress) -> {
            List<Future<RunFigures>> futures = new ArrayList<>();
            for (TuneRuns.Job j : jobs) {
                futures.add(pool.submit(() -> {
                    long start = mx.getCurrentThreadCpuTime();
                    RunFigures f = TuneRuns.figures(j);
                    long cpu = mx.getCurrentThreadCpuTime() - start;
                    synchronized (runs) {
                        runs.add("run," + shape + "," + cpu + "," + csv(RunCost.made(j, f)));
                        threadCpu[0] += cpu;
                        progress.accept(TuneRuns.units(j));
                    }
                    return f;
                }));
            }
            List<RunFigures> out = new ArrayList<>();
            try {
                for (Future<RunFigures> f : futures) {
                    out.add(f.get());
                }
            } catch (InterruptedException | ExecutionException e) {
                throw new IllegalStateException(e);
            }
            return out;
        };
        List<SearchPilot.Estimate> told = new ArrayList<>();
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long process = os.getProcessCpuTime();
        try {
            Tuner.tune(req, u -> {}, measured, told::add);
        } finally {
            pool.shutdownNow();
        }
        process = os.getProcessCpuTime() - process;
        if (!print) {
            return;
        }
        runs.forEach(System.out::println);
        RunCost estimate = told.isEmpty() ? RunCost.NONE : told.get(0).cost();
        boolean shared = !told.isEmpty() && told.get(0).made() < told.get(0).slots();
        RunCost bound = PlannedWork.cost(req);
        System.out.println("search," + shape + "," + THREADS + "," + threadCpu[0] + "," + process + "," + csv(estimate)
                + "," + csv(bound) + "," + shared);
        System.out.println(String.format(
                Locale.ROOT,
                "# %s: %d runs, thread CPU %.1f s, process CPU %.1f s; pilot's estimate %.1f s (%.2fx the thread CPU),"
                        + " bound before running %.1f s (%.2fx)",
                shape,
                runs.size(),
                threadCpu[0] / 1e9,
                process / 1e9,
                estimate.nanos() / 1e9,
                estimate.nanos() / threadCpu[0],
                bound.nanos() / 1e9,
                bound.nanos() / threadCpu[0]));
        System.out.flush();
    }

    private static String csv(RunCost c) {
        StringBuilder b = new StringBuilder();
        for (double v : c.counts()) {
            b.append(b.length() == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.1f", v));
        }
        return b.toString();
    }

    private static double[] counts(String[] f, int from) {
        int n = RunCost.Kind.values().length;
        double[] out = new double[n];
        for (int k = 0; k < n; k++) {
            out[k] = Double.parseDouble(f[from + k]);
        }
        return out;
    }

    /** Fits each kind's cost to the runs' CPU, and prints every search's estimate at the fitted and compiled costs. */
    static void fit(List<String> lines) {
        int n = RunCost.Kind.values().length;
        double[][] a = new double[n][n];
        double[] b = new double[n];
        Map<String, Double> shapeCpu = new LinkedHashMap<>();
        for (String line : lines) {
            String[] f = line.split(",");
            if (f[0].equals("run")) {
                shapeCpu.merge(f[1], Double.parseDouble(f[2]), Double::sum);
            }
        }
        for (String line : lines) {
            String[] f = line.split(",");
            if (!f[0].equals("run")) {
                continue;
            }
            double cpu = Double.parseDouble(f[2]);
            double[] x = counts(f, 3);
            // each search's runs weigh alike in all: a residual counts in proportion to its search's CPU
            double w = 1 / (shapeCpu.get(f[1]) * shapeCpu.get(f[1]));
            for (int i = 0; i < n; i++) {
                b[i] += w * x[i] * cpu;
                for (int j = 0; j < n; j++) {
                    a[i][j] += w * x[i] * x[j];
                }
            }
        }
        Map<String, double[]> perShape = new LinkedHashMap<>();
        double[] nanos = nonNegativeLeastSquares(a, b);
        for (String line : lines) {
            String[] f = line.split(",");
            if (f[0].equals("run")) {
                double[] sums = perShape.computeIfAbsent(f[1], k -> new double[2]);
                sums[0] += Double.parseDouble(f[2]);
                sums[1] += RunCost.of(counts(f, 3)).nanos(nanos);
            }
        }
        double[] compiled = new double[n];
        System.out.println("fitted costs in ns (compiled in):");
        for (RunCost.Kind k : RunCost.Kind.values()) {
            compiled[k.ordinal()] = k.nanos;
            System.out.printf(Locale.ROOT, "  %s(%.3g), was %.3g%n", k.name(), nanos[k.ordinal()], k.nanos);
        }
        double logs = 0;
        int searches = 0;
        for (String line : lines) {
            String[] f = line.split(",");
            // over the searches whose pilot took runs from others, as recorded (with the scale of the time)
            int n2 = 5 + 2 * n;
            if (f[0].equals("search") && (f.length <= n2 || f[n2].equals("true"))) {
                logs += Math.log(
                        Double.parseDouble(f[3]) / RunCost.of(counts(f, 5)).nanos(nanos));
                searches++;
            }
        }
        System.out.printf(
                Locale.ROOT,
                "where the pilots took runs from others (every search of a file without the flag), their estimates "
                        + "at the fitted costs would be right on the (geometric) mean times %.2f: set "
                        + "SearchPilot.SCALE_PERCENT (%d now) to that times the scale they were printed with%n",
                Math.exp(logs / Math.max(1, searches)),
                SearchPilot.SCALE_PERCENT);
        System.out.println(
                "| search | thread CPU s | process CPU s | its runs at the fitted costs (ratio) | pilot's estimate, "
                        + "fitted s (ratio) | compiled s (ratio) | bound, compiled s (ratio) |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|");
        for (String line : lines) {
            String[] f = line.split(",");
            if (!f[0].equals("search")) {
                continue;
            }
            double cpu = Double.parseDouble(f[3]);
            double process = Double.parseDouble(f[4]);
            RunCost estimate = RunCost.of(counts(f, 5));
            RunCost bound = RunCost.of(counts(f, 5 + n));
            System.out.printf(
                    Locale.ROOT,
                    "| %s | %.1f | %.1f | %.1f (%.2fx) | %.1f (%.2fx) | %.1f (%.2fx) | %.1f (%.2fx) |%n",
                    f[1],
                    cpu / 1e9,
                    process / 1e9,
                    perShape.get(f[1])[1] / 1e9,
                    perShape.get(f[1])[1] / cpu,
                    estimate.nanos(nanos) / 1e9,
                    estimate.nanos(nanos) / cpu,
                    estimate.nanos(compiled) / 1e9,
                    estimate.nanos(compiled) / cpu,
                    bound.nanos(compiled) / 1e9,
                    bound.nanos(compiled) / cpu);
        }
    }

    /** Minimises x'Ax - 2b'x over x >= 0 by coordinate descent (A symmetric, positive semidefinite). */
    static double[] nonNegativeLeastSquares(double[][] a, double[] b) {
        int n = b.length;
        double[] x = new double[n];
        for (int iteration = 0; iteration < 100_000; iteration++) {
            double change = 0;
            for (int j = 0; j < n; j++) {
                if (a[j][j] <= 0) {
                    continue;
                }
                double r = b[j];
                for (int k = 0; k < n; k++) {
                    if (k != j) {
                        r -= a[j][k] * x[k];
                    }
                }
                double next = Math.max(0, r / a[j][j]);
                change = Math.max(change, Math.abs(next - x[j]) / Math.max(1e-9, Math.abs(next)));
                x[j] = next;
            }
            if (change < 1e-12) {
                break;
            }
        }
        return x;
    }
}
