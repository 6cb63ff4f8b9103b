package dev.outlierlab.flink;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * CPU of {@code replay} as a job on a standalone session cluster (a JobManager and two TaskManagers of two slots,
 * each a JVM of its own on 127.0.0.1, {@link StandaloneCluster}; the job jar submitted with Flink's client, {@code
 * flink run -p N}) beside local {@code replay} ({@code java -jar outlier-lab.jar replay}) on the same logs, the runs
 * interleaved. The cluster's CPU of a job is what its JobManager and TaskManagers spent between the job's
 * submission and its end ({@code /proc/PID/stat}'s utime and stime before and after), plus the whole client
 * process; the cluster's start and idle time are not counted, as a session cluster runs before and after a job. A
 * first job on a few thousand lines warms the cluster's JVMs up before any run is measured. A benchmark, run by
 * {@code bench/flink-cluster-benchmark.sh}, not a test.
 *
 * <p>Arguments: {@code DIR LOCAL_JAR JOB_JAR ROUNDS PARALLELISMS LOGS...}, where PARALLELISMS is a comma-separated
 * list ({@code 2,4}). Prints one line per run and, per engine, the median CPU seconds per million lines and the
 * ratio to local replay's; writes each engine's last report to {@code DIR/report-NAME.txt} and fails (exit 1)
 * when a report differs from local replay's.
 */
public final class ClusterBenchmark {
    private static final long TICKS = 100; // USER_HZ of Linux's /proc
    /**
     * The client's JVM compiles with C1 only: it runs for seconds, most of them starting up and building the job,
     * where C2's compilations cost about half its CPU (3.5 s of 7 per submission) and win nothing back. As
     * docs/flink.md recommends for {@code flink run}.
     */
    private static final Map<String, String> SETTINGS = Map.of(
            "env.java.opts.client",
            "-XX:TieredStopAtLevel=1",
            // the memory of Flink's distributed config.yaml (the real-cluster test's is smaller), managed memory
            // as its default fraction (0.4) of it
            "jobmanager.memory.process.size",
            "1600m",
            "taskmanager.memory.process.size",
            "1728m",
            "taskmanager.memory.managed.size",
            "512m");

    private ClusterBenchmark() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]).toAbsolutePath();
        Path localJar = Path.of(args[1]).toAbsolutePath();
        Path jobJar = Path.of(args[2]).toAbsolutePath();
        int rounds = Integer.parseInt(args[3]);
        List<Integer> parallelisms = new ArrayList<>();
        for (String p : args[4].split(",")) {
            parallelisms.add(Integer.parseInt(p));
        }
        List<String> logs = List.of(args).subList(5, args.length);
        long lines = 0;
        for (String log : logs) {
            try (var s = Files.lines(Path.of(log))) {
                lines += s.count();
            }
        }
        Files.createDirectories(dir);
        // the cluster's class path (Flink and the libraries) as the real-cluster test's; the job jar is the one a
        // user submits (the shaded target/outlier-lab-flink.jar)
        StandaloneCluster.Layout layout = new StandaloneCluster.Layout(
                jobJar, StandaloneCluster.Layout.of(dir).flinkClassPath());
        Map<String, List<Double>> cpu = new LinkedHashMap<>();
        Map<String, String> reports = new LinkedHashMap<>();
        try (StandaloneCluster cluster = new StandaloneCluster(dir.resolve("session"), layout, SETTINGS)) {
            StandaloneCluster.Jvm jobManager = cluster.startJobManager(StandaloneCluster.SESSION, List.of(), List.of());
            List<StandaloneCluster.Jvm> jvms = new ArrayList<>(List.of(
                    jobManager,
                    cluster.startTaskManager("taskmanager-1", List.of()),
                    cluster.startTaskManager("taskmanager-2", List.of())));
            if (!cluster.awaitTaskManagers(jobManager, 2, Duration.ofMinutes(3))) {
                throw new IllegalStateException("the cluster did not start: " + cluster.tails());
            }
            Path warmUp = dir.resolve("warm-up.log");
            try (var s = Files.lines(Path.of(logs.get(0)))) {
                Files.write(warmUp, (Iterable<String>) s.limit(5000)::iterator);
            }
            submit(cluster, jvms, "warm-up", layout, 2, List.of(warmUp.toString()));
            System.out.printf(
                    "%d lines of %d logs; cluster: a JobManager and 2 TaskManagers of 2 slots%n", lines, logs.size());
            for (int r = 1; r <= rounds; r++) {
                Path report = dir.resolve("report-local.txt");
                long before = children();
                List<String> command = new ArrayList<>(List.of(java(), "-jar", localJar.toString()));
                command.addAll(replay(logs));
                Process local = new ProcessBuilder(command)
                        .redirectOutput(report.toFile())
                        .redirectError(ProcessBuilder.Redirect.INHERIT)
                        .start();
                long t0 = System.nanoTime();
                if (local.waitFor() != 0) {
                    throw new IllegalStateException("local replay failed");
                }
                double wall = (System.nanoTime() - t0) / 1e9;
                double seconds = (children() - before) / (double) TICKS;
                record("local", wall, seconds, seconds, lines, cpu);
                reports.put("local", Files.readString(report));
                for (int p : parallelisms) {
                    String name = "cluster-p" + p;
                    reports.put(name, submit(cluster, jvms, name, layout, p, logs));
                    Run run = last;
                    record(name, run.wall, run.cluster + run.client, run.client, lines, cpu);
                }
            }
        }
        System.out.println("| engine | CPU s (median) | CPU s per million lines | against local |");
        System.out.println("|---|---:|---:|---:|");
        double base = median(cpu.get("local"));
        for (Map.Entry<String, List<Double>> e : cpu.entrySet()) {
            double c = median(e.getValue());
            System.out.printf("| %s | %.2f | %.2f | %.2fx |%n", e.getKey(), c, c / (lines / 1e6), c / base);
        }
        boolean same = true;
        for (Map.Entry<String, String> e : reports.entrySet()) {
            Files.writeString(dir.resolve("report-" + e.getKey() + ".txt"), e.getValue());
            if (!e.getValue().equals(reports.get("local"))) {
                System.out.println("report of " + e.getKey() + " differs from local replay's");
                same = false;
            }
        }
        if (same) {
            System.out.println("reports: byte-identical");
        }
        System.exit(same ? 0 : 1);
    }

    private record Run(double wall, double cluster, double client) {}

    private static Run last;

    /** {@code flink run -p N JOBJAR replay LOGS --log-format envoy}: its report, the CPU it cost in {@link #last}. */
    private static String submit(
            StandaloneCluster cluster,
            List<StandaloneCluster.Jvm> jvms,
            String name,
            StandaloneCluster.Layout layout,
            int parallelism,
            List<String> logs)
            throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of(
                "run", "-p", Integer.toString(parallelism), layout.jobJar().toString()));
        args.addAll(replay(logs));
        long[] before = ticksOf(jvms);
        long children = children();
        long t0 = System.nanoTime();
        StandaloneCluster.Jvm client = cluster.client(name, args);
        String out = StandaloneCluster.await(client, Duration.ofMinutes(10));
        double wall = (System.nanoTime() - t0) / 1e9;
        if (client.process().exitValue() != 0) {
            throw new IllegalStateException(client.tail() + cluster.tails());
        }
        long[] after = ticksOf(jvms);
        long spent = 0;
        StringBuilder each = new StringBuilder();
        for (int i = 0; i < after.length; i++) {
            spent += after[i] - before[i];
            each.append(String.format(" %s %.2f s", jvms.get(i).name(), (after[i] - before[i]) / (double) TICKS));
        }
        last = new Run(wall, spent / (double) TICKS, (children() - children) / (double) TICKS);
        System.out.printf("  %s: client %.2f s,%s%n", name, last.client, each);
        return RealClusterTest.withoutClientLines(out);
    }

    private static List<String> replay(List<String> logs) {
        List<String> args = new ArrayList<>(List.of("replay"));
        args.addAll(logs);
        args.addAll(List.of("--log-format", "envoy"));
        return args;
    }

    private static void record(
            String name, double wall, double seconds, double client, long lines, Map<String, List<Double>> cpu) {
        cpu.computeIfAbsent(name, k -> new ArrayList<>()).add(seconds);
        System.out.printf(
                "%-12s wall %7.2f s  cpu %7.2f s (client %5.2f s)  %7.2f cpu s per million lines%n",
                name, wall, seconds, client, seconds / (lines / 1e6));
    }

    /** utime + stime of each of the JVMs, in clock ticks. */
    private static long[] ticksOf(List<StandaloneCluster.Jvm> jvms) throws IOException {
        long[] out = new long[jvms.size()];
        for (int i = 0; i < out.length; i++) {
            long[] f = stat(jvms.get(i).process().pid());
            out[i] = f[0] + f[1];
        }
        return out;
    }

    /** cutime + cstime of this JVM: the CPU of every child it has waited for, in clock ticks. */
    private static long children() throws IOException {
        long[] f = stat(ProcessHandle.current().pid());
        return f[2] + f[3];
    }

    /** utime, stime, cutime, cstime of {@code /proc/PID/stat} (its fields 14 to 17). */
    private static long[] stat(long pid) throws IOException {
        String s = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        String[] f = s.substring(s.lastIndexOf(')') + 2).split(" ");
        return new long[] {Long.parseLong(f[11]), Long.parseLong(f[12]), Long.parseLong(f[13]), Long.parseLong(f[14])};
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        s.sort(Double::compare);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }
}
