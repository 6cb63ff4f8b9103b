package dev.outlierlab.flink;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;

/**
 * A Flink cluster as Flink's scripts start one, from Flink's modules (flink-dist is not published): a JobManager
 * and TaskManagers, each a JVM of its own on 127.0.0.1, on a class path of Flink and the libraries (the test's
 * class path without the project's own classes, which are the job jar's), with a written {@code config.yaml} and
 * the memory flags and dynamic settings the scripts compute ({@link ClusterConfig}). Every JVM it starts is ended
 * on {@link #close} and, should the test's JVM end first, by a shutdown hook.
 */
final class StandaloneCluster implements AutoCloseable {
    static final String SESSION = "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint";
    static final String APPLICATION = "org.apache.flink.container.entrypoint.StandaloneApplicationClusterEntryPoint";
    static final String TASK_MANAGER = "org.apache.flink.runtime.taskexecutor.TaskManagerRunner";
    static final String CLIENT = "org.apache.flink.client.cli.CliFrontend";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<Process> ALL = new CopyOnWriteArrayList<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> ALL.forEach(StandaloneCluster::kill), "flink-jvms"));
    }

    /** A JVM the cluster started, with its output in files. */
    record Jvm(String name, Process process, Path out, Path err) {
        String tail() {
            try {
                String e = Files.readString(err);
                String o = Files.readString(out);
                Path log = out.resolveSibling(name + ".log");
                String l = Files.exists(log) ? Files.readString(log) : "";
                l = l.substring(Math.max(0, l.length() - 4000));
                String both = o + e + "\n[log] " + l;
                return name + " (exit " + (process.isAlive() ? "none yet" : process.exitValue()) + "): "
                        + both.substring(Math.max(0, both.length() - 6000));
            } catch (IOException ex) {
                return name + ": " + ex;
            }
        }
    }

    private final Path dir;
    private final ClusterLayout layout;
    private final ClusterConfig config;
    /** The directory of {@code config.yaml}, {@code FLINK_CONF_DIR} of every JVM. */
    final Path conf;

    final int restPort;
    private final List<Jvm> jvms = new ArrayList<>();

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /**
     * Writes the configuration of a cluster in {@code dir} ({@link ClusterConfig}): every address 127.0.0.1, free
     * ports, two slots per TaskManager, small memory, and {@code extra} settings.
     */
    StandaloneCluster(Path dir, ClusterLayout layout, Map<String, String> extra) throws IOException {
        this.dir = dir;
        this.layout = layout;
        this.config = new ClusterConfig(dir, extra);
        this.conf = config.conf;
        this.restPort = config.restPort;
    }

    /** Starts a JobManager of {@code entrypoint} with {@code args} after its own, on {@code extraClassPath} too. */
    Jvm startJobManager(String entrypoint, List<String> extraClassPath, List<String> args) throws IOException {
        ClusterConfig.Command c = config.jobManager();
        List<String> program = new ArrayList<>(c.program());
        program.addAll(args);
        return start("jobmanager", c.jvmOptions(), extraClassPath, entrypoint, program);
    }

    /** Starts a TaskManager, on {@code extraClassPath} too. */
    Jvm startTaskManager(String name, List<String> extraClassPath) throws IOException {
        ClusterConfig.Command c = config.taskManager();
        return start(name, c.jvmOptions(), extraClassPath, TASK_MANAGER, c.program());
    }

    /** Starts Flink's command-line client ({@code flink ARGS}), which finds the cluster by the configuration. */
    Jvm client(String name, List<String> args) throws IOException {
        return client(name, List.of(), args);
    }

    /** As {@link #client(String, List)}, with {@code jvmOptions} after the client's own. */
    Jvm client(String name, List<String> jvmOptions, List<String> args) throws IOException {
        List<String> options = new ArrayList<>(config.clientOptions);
        options.addAll(jvmOptions);
        return start(name, options, List.of(), CLIENT, args);
    }

    /**
     * The command that starts Flink's command-line client on this cluster, as {@link #client} does, without its
     * arguments: the JVM, the client's options ({@code env.java.opts.client} after Flink's own), the class path.
     */
    List<String> clientCommand() {
        List<String> words = new ArrayList<>();
        words.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        words.addAll(config.clientOptions);
        words.addAll(ClusterConfig.JAVA_OPTS);
        words.addAll(config.logOptions(dir.resolve("client.log")));
        words.add("-cp");
        words.add(String.join(File.pathSeparator, layout.flinkClassPath()));
        words.add(CLIENT);
        return words;
    }

    private Jvm start(
            String name, List<String> jvmOptions, List<String> extraClassPath, String main, List<String> program)
            throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(ClusterConfig.JAVA_OPTS);
        command.addAll(config.logOptions(dir.resolve(name + ".log")));
        List<String> cp = new ArrayList<>(extraClassPath);
        cp.addAll(layout.flinkClassPath());
        command.add("-cp");
        command.add(String.join(File.pathSeparator, cp));
        command.add(main);
        command.addAll(program);
        Path out = dir.resolve(name + ".out");
        Path err = dir.resolve(name + ".err");
        ProcessBuilder b = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile());
        b.environment().put("FLINK_CONF_DIR", conf.toString());
        Process p = b.start();
        ALL.add(p);
        Jvm jvm = new Jvm(name, p, out, err);
        jvms.add(jvm);
        return jvm;
    }

    /**
     * Starts a session cluster: its JobManager and {@code taskManagers} TaskManagers, waiting until they are
     * registered; the JVMs, the JobManager first. Aborts the test (an assumption, with the JobManager's output) where
     * the JobManager's JVM cannot start ("Could not create the Java Virtual Machine"); fails when they did not
     * register within {@code bound}.
     */
    List<Jvm> startSession(int taskManagers, Duration bound) throws IOException, InterruptedException {
        List<Jvm> started = new ArrayList<>();
        Jvm jobManager = startJobManager(SESSION, List.of(), List.of());
        started.add(jobManager);
        for (int i = 1; i <= taskManagers; i++) {
            started.add(startTaskManager("taskmanager-" + i, List.of()));
        }
        boolean up = awaitTaskManagers(jobManager, taskManagers, bound);
        // the JVM's own words when it cannot start (too little memory for the heap asked for, an unknown option);
        // a JobManager that started and then failed (a class missing from the class path) fails the test
        Assumptions.assumeFalse(
                !up && !jobManager.process().isAlive() && jobManager.tail().contains("the Java Virtual Machine"),
                () -> "the JobManager's JVM did not start: " + jobManager.tail());
        if (!up) {
            throw new AssertionError(
                    "the cluster did not come up (its TaskManagers registered) within " + bound + ": " + tails());
        }
        return started;
    }

    /** Flink's client submitting the job jar: {@code flink run -p PARALLELISM JOBJAR ARGS}. */
    Jvm submit(String name, List<String> jvmOptions, int parallelism, List<String> args) throws IOException {
        List<String> all = new ArrayList<>(List.of(
                "run", "-p", Integer.toString(parallelism), layout.jobJar().toString()));
        all.addAll(args);
        return client(name, jvmOptions, all);
    }

    /**
     * {@link #submit} and wait for the client within {@code bound}: its standard output without the lines Flink's
     * client adds, or a failure with every JVM's output if it did not end with 0.
     */
    String run(String name, int parallelism, List<String> args, Duration bound)
            throws IOException, InterruptedException {
        Jvm client = submit(name, List.of(), parallelism, args);
        String out = await(client, bound);
        if (client.process().exitValue() != 0) {
            throw new AssertionError(name + " failed: " + client.tail() + tails());
        }
        return withoutClientLines(out);
    }

    /** Flink's client prints "Job has been submitted with JobID ..." before the program's own output. */
    static String withoutClientLines(String out) {
        return out.lines()
                .filter(l -> !l.startsWith("Job has been submitted with JobID"))
                .map(l -> l + "\n")
                .collect(Collectors.joining());
    }

    /** Waits until {@code taskManagers} TaskManagers are registered; false if the JobManager ended first. */
    boolean awaitTaskManagers(Jvm jobManager, int taskManagers, Duration bound) throws InterruptedException {
        long until = System.nanoTime() + bound.toNanos();
        while (System.nanoTime() < until && jobManager.process().isAlive()) {
            JsonNode tms = rest("/taskmanagers");
            if (tms != null && tms.path("taskmanagers").size() >= taskManagers) {
                return true;
            }
            Thread.sleep(250);
        }
        return false;
    }

    /** GET of the REST API, or null while it does not answer. */
    JsonNode rest(String path) {
        try {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + restPort + path))
                            .timeout(Duration.ofSeconds(5))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? JSON.readTree(r.body()) : null;
        } catch (ConnectException e) {
            return null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** Waits for {@code jvm} to end; its stdout, or a failure with its output. */
    static String await(Jvm jvm, Duration bound) throws IOException, InterruptedException {
        if (!jvm.process().waitFor(bound.toMillis(), TimeUnit.MILLISECONDS)) {
            kill(jvm.process());
            throw new AssertionError("did not end within " + bound + ": " + jvm.tail());
        }
        return Files.readString(jvm.out(), StandardCharsets.UTF_8);
    }

    String tails() {
        StringBuilder s = new StringBuilder();
        for (Jvm j : jvms) {
            s.append("\n--- ").append(j.tail());
        }
        return s.toString();
    }

    static void kill(Process p) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        try {
            p.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Stops every JVM as Flink's {@code stop-cluster.sh} does, with a SIGTERM (the JVM runs its shutdown hooks and
     * exits, writing a class-data archive named by {@code -XX:ArchiveClassesAtExit}), one after another, the
     * TaskManagers first; kills one that has not ended within a minute.
     */
    void stop() throws InterruptedException {
        for (int i = jvms.size() - 1; i >= 0; i--) {
            Process p = jvms.get(i).process();
            p.destroy();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                kill(p);
            }
        }
    }

    @Override
    public void close() {
        for (Jvm j : jvms) {
            kill(j.process());
            ALL.remove(j.process());
        }
    }
}
