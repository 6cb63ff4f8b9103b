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
 * each a JVM of its own on 127.0.0.1, {@link StandaloneCluster}, on the class path of a Flink installation, {@link
 * ClusterLayout#installed}; the job jar submitted with Flink's client, {@code flink run -p N}) beside local {@code
 * replay} ({@code java -jar outlier-lab.jar replay}) on the same logs, the runs interleaved. The cluster's CPU of a
 * job is what its JobManager and TaskManagers spent between the job's submission and its end ({@code
 * /proc/PID/stat}'s utime and stime before and after; of it, each JVM's JIT compiler threads and garbage
 * collector), plus the whole client process; the cluster's start and idle time are not counted, as a session
 * cluster runs before and after a job. A benchmark, run by {@code bench/flink-cluster-benchmark.sh}, not a test.
 *
 * <p>The two deployments of docs/flink.md, each on a fresh cluster: the shaded job jar submitted to Flink alone
 * (after a first job on a few thousand lines that warms the cluster's JVMs up), and the job's dependencies in the
 * cluster's {@code lib/} ({@code outlier-lab-flink-lib.jar} on every JVM's class path, the client's too) with the
 * module's own jar submitted ({@code outlier-lab-flink-job.jar}): its first job, with nothing warmed up, at the
 * highest parallelism (so on both TaskManagers) on its own line ({@code lib-first-job-pN}), then the later ones
 * ({@code lib-pN}), which find the project's classes loaded and compiled by the earlier job, as on any
 * long-running session cluster; under Flink's defaults, then on a fresh cluster under the settings docs/flink.md
 * recommends ({@link ClusterConfig#RECOMMENDED}; rows {@code recommended-...}, the first job's client writing the
 * client's class-data archive, which the later ones map); with any {@code -Dbench.tuned.KEY=VALUE}, under those
 * settings and these (rows {@code tuned-...}); then, as installed, on a fresh cluster whose first client maps a
 * client's archive written beforehand (rows {@code installed-...}; with {@code -Dbench.deployments=...,archived}
 * the JobManager and TaskManagers map archives of their classes too, rows {@code archived-...}).
 *
 * <p>Arguments: {@code DIR LOCAL_JAR JOB_JAR ROUNDS PARALLELISMS LIB_JAR THIN_JAR LOGS...}, where PARALLELISMS is a
 * comma-separated list ({@code 2,4}) and LIB_JAR THIN_JAR may be {@code - -} (the shaded jar only). The working
 * directory is the flink module's, packaged ({@code target/flink-lib/}). Prints one line per run and, per engine,
 * the median CPU seconds per million lines and the ratio to local replay's; writes each engine's last report to
 * {@code DIR/report-NAME.txt} and fails (exit 1) when a report differs from local replay's.
 */
public final class ClusterBenchmark {
    private static final long TICKS = ProcessCpu.TICKS;
    /**
     * The client's JVM compiles with C1 only: it runs for seconds, most of them starting up and building the job,
     * where C2's compilations cost about half its CPU (3.5 s of 7 per submission) and win nothing back. As
     * docs/flink.md recommends for {@code flink run}. Each session's first client also writes a class-data archive
     * of the classes it loaded from the class path (JDK 17's dynamic AppCDS), which the later clients map instead of
     * loading them again, as docs/flink.md shows.
     */
    private static final Map<String, String> SETTINGS = settings(Map.of(
            "env.java.opts.client",
            "-XX:TieredStopAtLevel=1",
            // the memory of Flink's distributed config.yaml (the real-cluster test's is smaller), managed memory
            // as its default fraction (0.4) of it
            "jobmanager.memory.process.size",
            "1600m",
            "taskmanager.memory.process.size",
            "1728m",
            "taskmanager.memory.managed.size",
            "512m"));

    /**
     * The settings above and any given as {@code -Dbench.flink.KEY=VALUE} to the benchmark's JVM (for example
     * {@code -Dbench.flink.env.java.opts.taskmanager='-XX:TieredStopAtLevel=1
     * -XX:StartFlightRecording=filename=/tmp/tm/,settings=profile'}, a flight recording of each TaskManager in that
     * directory, written as a session's cluster is stopped, to see where a TaskManager's CPU goes).
     */
    /**
     * The deployments to measure, {@code -Dbench.deployments=shaded,lib,recommended,installed} by default ({@code
     * archived} instead of {@code installed} adds the JobManager's and TaskManagers' archives): a subset measures one
     * setting against local replay in less time.
     */
    private static final List<String> DEPLOYMENTS =
            List.of(System.getProperty("bench.deployments", "shaded,lib,recommended,installed")
                    .split(","));

    private static Map<String, String> settings(Map<String, String> defaults) {
        Map<String, String> out = new LinkedHashMap<>(defaults);
        System.getProperties().stringPropertyNames().stream()
                .filter(k -> k.startsWith("bench.flink."))
                .forEach(k -> out.put(k.substring("bench.flink.".length()), System.getProperty(k)));
        return out;
    }

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
        // LIB_JAR THIN_JAR, or "-" "-" for the shaded jar alone
        Path libJar = args[5].equals("-") ? null : Path.of(args[5]).toAbsolutePath();
        Path thinJar = args[6].equals("-") ? null : Path.of(args[6]).toAbsolutePath();
        List<String> logs = List.of(args).subList(7, args.length);
        long lines = 0;
        for (String log : logs) {
            try (var s = Files.lines(Path.of(log))) {
                lines += s.count();
            }
        }
        Files.createDirectories(dir);
        Map<String, List<Double>> cpu = new LinkedHashMap<>();
        Map<String, String> reports = new LinkedHashMap<>();
        Path warmUp = dir.resolve("warm-up.log");
        try (var s = Files.lines(Path.of(logs.get(0)))) {
            Files.write(warmUp, (Iterable<String>) s.limit(5000)::iterator);
        }
        System.out.printf(
                "%d lines of %d logs; cluster: a JobManager and 2 TaskManagers of 2 slots%n", lines, logs.size());
        // the cluster's class path is a Flink installation's (ClusterLayout.installed): Flink and its logging,
        // and in the second deployment the job's libraries in its lib/, nothing else of the benchmark's
        ClusterLayout flinkAlone = ClusterLayout.installed(dir.resolve("flink-home"), jobJar, List.of());
        if (!DEPLOYMENTS.contains("shaded")) {
            // local replay's rounds on their own, for the deployments that follow
            for (int r = 1; r <= rounds; r++) {
                local(dir, localJar, logs, lines, cpu, reports);
            }
        } else {
            System.out.println(
                    "the shaded job jar submitted to Flink alone (every job loads the project's classes anew):");
            // with the JIT options docs/flink.md recommends for the JobManager and the TaskManagers, whatever the jar
            Map<String, String> alone = new LinkedHashMap<>(SETTINGS);
            ClusterConfig.RECOMMENDED.entrySet().stream()
                    .filter(e -> e.getKey().startsWith("env.java.opts."))
                    .forEach(e -> alone.put(e.getKey(), e.getValue()));
            // and any -Dbench.flink.KEY=VALUE over them (a flight recording of the JobManager, for example)
            alone.putAll(settings(Map.of()));
            try (Session session = new Session(dir.resolve("session"), flinkAlone, alone, null)) {
                session.submit("warm-up", 2, List.of(warmUp.toString()));
                for (int r = 1; r <= rounds; r++) {
                    local(dir, localJar, logs, lines, cpu, reports);
                    for (int p : parallelisms) {
                        String name = "cluster-p" + p;
                        reports.put(name, session.submit(name, p, logs));
                        record(name, last.wall, last.cluster + last.client, last.client, lines, cpu);
                    }
                }
            }
        }
        if (libJar != null) {
            // the job's dependencies in the cluster's lib/, this module's own jar submitted: a fresh cluster's first
            // job (at the highest parallelism, so on both TaskManagers) loads and compiles them, later jobs find
            // them loaded and compiled, as on a session cluster that has run a job before; under Flink's defaults,
            // then under the settings docs/flink.md recommends (and those with any -Dbench.tuned.KEY=VALUE)
            ClusterLayout withLib = ClusterLayout.installed(dir.resolve("flink-lib-home"), thinJar, List.of(libJar));
            Map<String, Map<String, String>> variants = new LinkedHashMap<>();
            if (DEPLOYMENTS.contains("lib")) {
                variants.put("lib", SETTINGS);
            }
            Map<String, String> recommended = new LinkedHashMap<>(SETTINGS);
            recommended.putAll(ClusterConfig.RECOMMENDED);
            if (DEPLOYMENTS.contains("recommended")) {
                variants.put("recommended", recommended);
            }
            // the recommended settings and those to compare with them, side by side (rows tuned-...)
            Map<String, String> tuned = new LinkedHashMap<>(recommended);
            System.getProperties().stringPropertyNames().stream()
                    .filter(k -> k.startsWith("bench.tuned."))
                    .forEach(k -> tuned.put(k.substring("bench.tuned.".length()), System.getProperty(k)));
            if (!tuned.equals(recommended)) {
                variants.put("tuned", tuned);
            }
            // as installed: the client's class-data archive (the JDK's AppCDS) written beforehand, by a submission to
            // another cluster, so that the first client of a fresh cluster maps it (rows installed-...); or that and
            // an archive of the JobManager's and the TaskManagers' classes, written at their exit by that cluster,
            // stopped as stop-cluster.sh stops it (rows archived-...)
            Path archives = dir.resolve("archives");
            boolean jvmArchives = DEPLOYMENTS.contains("archived");
            if (jvmArchives || DEPLOYMENTS.contains("installed")) {
                Files.createDirectories(archives);
                try (StandaloneCluster writer = new StandaloneCluster(
                        dir.resolve("session-archive-writer"),
                        withLib,
                        jvmArchives ? withArchive(tuned, "-XX:ArchiveClassesAtExit=", archives, "dump") : tuned)) {
                    writer.startSession(2, Duration.ofMinutes(3));
                    int p = parallelisms.stream()
                            .mapToInt(Integer::intValue)
                            .max()
                            .orElseThrow();
                    List<String> client = List.of("-XX:ArchiveClassesAtExit=" + archives.resolve("client.jsa"));
                    StandaloneCluster.Jvm job =
                            writer.submit("archive-writer", client, p, replay(List.of(warmUp.toString())));
                    StandaloneCluster.await(job, Duration.ofMinutes(10));
                    writer.stop();
                }
                if (DEPLOYMENTS.contains("installed")) {
                    // the client's archive alone, beside the JVMs' archives when both are asked for
                    variants.put("installed", tuned);
                }
                if (jvmArchives) {
                    variants.put("archived", withArchive(tuned, "-XX:SharedArchiveFile=", archives, "map"));
                }
            }
            for (Map.Entry<String, Map<String, String>> v : variants.entrySet()) {
                String prefix = v.getKey();
                System.out.println("the job's dependencies in lib/, the job's own jar submitted (" + prefix + "):");
                Path clientArchive =
                        prefix.equals("archived") || prefix.equals("installed") ? archives.resolve("client.jsa") : null;
                try (Session session =
                        new Session(dir.resolve("session-" + prefix), withLib, v.getValue(), clientArchive)) {
                    int p = parallelisms.stream()
                            .mapToInt(Integer::intValue)
                            .max()
                            .orElseThrow();
                    String first = prefix + "-first-job-p" + p;
                    reports.put(first, session.submit(first, p, logs));
                    record(first, last.wall, last.cluster + last.client, last.client, lines, cpu);
                    for (int r = 1; r <= rounds; r++) {
                        for (int q : parallelisms) {
                            String name = prefix + "-p" + q;
                            reports.put(name, session.submit(name, q, logs));
                            record(name, last.wall, last.cluster + last.client, last.client, lines, cpu);
                        }
                    }
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

    /**
     * {@code settings} with the JobManager's and the TaskManagers' JVM options naming a class-data archive each in
     * {@code archives} ({@code jobmanager.jsa}, {@code taskmanager.jsa}) by {@code option}, and the JVM's archive
     * messages in a file ({@code jobmanager-WHAT.log}, ...) where they show whether the archive was written and
     * mapped.
     */
    private static Map<String, String> withArchive(
            Map<String, String> settings, String option, Path archives, String what) {
        Map<String, String> out = new LinkedHashMap<>(settings);
        for (String role : List.of("jobmanager", "taskmanager")) {
            String key = "env.java.opts." + role;
            String more = option + archives.resolve(role + ".jsa") + " -Xlog:cds=info:file="
                    + archives.resolve(role + "-" + what + ".log");
            out.put(key, (out.getOrDefault(key, "") + " " + more).trim());
        }
        return out;
    }

    private record Run(double wall, double cluster, double client) {}

    private static Run last;

    /** A session cluster: a JobManager and two TaskManagers, started, ended on {@link #close}. */
    private static final class Session implements AutoCloseable {
        private final StandaloneCluster cluster;
        private final List<StandaloneCluster.Jvm> jvms;
        private final Path dir;

        /**
         * With {@code clientArchive} null, the session's first client writes the client's class-data archive;
         * otherwise every client maps that one, written before.
         */
        Session(Path dir, ClusterLayout layout, Map<String, String> settings, Path clientArchive)
                throws IOException, InterruptedException {
            this.dir = dir;
            // written by this session's first client, not by an earlier run's, or the one written before
            Files.deleteIfExists(dir.resolve("flink-client.jsa"));
            if (clientArchive != null) {
                Files.createDirectories(dir);
                Files.copy(clientArchive, dir.resolve("flink-client.jsa"));
            }
            cluster = new StandaloneCluster(dir, layout, settings);
            jvms = cluster.startSession(2, Duration.ofMinutes(3));
        }

        /**
         * {@code flink run -p N JOBJAR replay LOGS --log-format envoy}: its report, the CPU it cost in {@link
         * #last}.
         */
        String submit(String name, int parallelism, List<String> logs) throws IOException, InterruptedException {
            long[][] before = ProcessCpu.ticksOf(jvms);
            long children = ProcessCpu.children();
            long t0 = System.nanoTime();
            // the client's class-data archive: written by the session's first client, mapped by the later ones
            Path archive = dir.resolve("flink-client.jsa");
            List<String> sharing = Files.exists(archive)
                    ? List.of("-XX:SharedArchiveFile=" + archive)
                    // without the JVM's warnings about classes it cannot archive, on standard output with the report
                    : List.of("-XX:ArchiveClassesAtExit=" + archive, "-Xlog:cds=off");
            StandaloneCluster.Jvm client = cluster.submit(name, sharing, parallelism, replay(logs));
            String out = StandaloneCluster.await(client, Duration.ofMinutes(10));
            double wall = (System.nanoTime() - t0) / 1e9;
            if (client.process().exitValue() != 0) {
                throw new IllegalStateException(client.tail() + cluster.tails());
            }
            long[][] after = ProcessCpu.ticksOf(jvms);
            long spent = 0;
            StringBuilder each = new StringBuilder();
            for (int i = 0; i < after.length; i++) {
                long[] d = {after[i][0] - before[i][0], after[i][1] - before[i][1], after[i][2] - before[i][2]};
                spent += d[0];
                each.append(String.format(
                        " %s %.2f s (JIT %.2f, GC %.2f)",
                        jvms.get(i).name(), d[0] / (double) TICKS, d[1] / (double) TICKS, d[2] / (double) TICKS));
            }
            last = new Run(wall, spent / (double) TICKS, (ProcessCpu.children() - children) / (double) TICKS);
            System.out.printf("  %s: client %.2f s,%s%n", name, last.client, each);
            return StandaloneCluster.withoutClientLines(out);
        }

        /** Stops the JVMs as {@code stop-cluster.sh} does (a flight recording of them is written at their exit). */
        @Override
        public void close() throws InterruptedException {
            cluster.stop();
            cluster.close();
        }
    }

    /** One run of local replay ({@code java -jar outlier-lab.jar replay LOGS}): its CPU, its report. */
    private static void local(
            Path dir,
            Path localJar,
            List<String> logs,
            long lines,
            Map<String, List<Double>> cpu,
            Map<String, String> reports)
            throws IOException, InterruptedException {
        Path report = dir.resolve("report-local.txt");
        long before = ProcessCpu.children();
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
        double seconds = (ProcessCpu.children() - before) / (double) TICKS;
        record("local", wall, seconds, seconds, lines, cpu);
        reports.put("local", Files.readString(report));
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
