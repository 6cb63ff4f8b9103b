package dev.outlierlab.flink;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.runtime.clusterframework.TaskExecutorProcessSpec;
import org.apache.flink.runtime.clusterframework.TaskExecutorProcessUtils;
import org.apache.flink.runtime.jobmanager.JobManagerProcessSpec;
import org.apache.flink.runtime.jobmanager.JobManagerProcessUtils;
import org.apache.flink.runtime.util.config.memory.ProcessMemoryUtils;

/**
 * The configuration of a {@link StandaloneCluster} and the command lines Flink's scripts derive from it: the written
 * {@code conf/config.yaml} and {@code conf/log4j.properties}, each role's JVM options ({@code env.java.opts.*}), and
 * the memory flags and dynamic settings of the JobManager and the TaskManagers as {@code BashJavaUtils} computes them
 * for {@code jobmanager.sh} and {@code taskmanager.sh} (the same utilities, called here).
 */
final class ClusterConfig {
    /**
     * The JVM options of Flink's distribution for every JVM ({@code env.java.opts.all} of its {@code config.yaml}):
     * Flink reflects into the JDK's own classes.
     */
    static final List<String> JAVA_OPTS = List.of(
            "--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED",
            "--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED",
            "--add-opens=java.base/java.lang=ALL-UNNAMED",
            "--add-opens=java.base/java.net=ALL-UNNAMED",
            "--add-opens=java.base/java.io=ALL-UNNAMED",
            "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-opens=java.base/java.text=ALL-UNNAMED",
            "--add-opens=java.base/java.time=ALL-UNNAMED",
            "--add-opens=java.base/java.util=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED");

    /**
     * The settings docs/flink.md recommends for a session cluster with the job's libraries in {@code lib/}: every job
     * resolves the project's classes from {@code lib/} (loaded and compiled once per process, instead of once per
     * job from the job jar, which Flink loads child-first), and the JobManager and the TaskManagers compile with C1
     * only: the JobManager coordinates and has no hot loops (C2 was most of its CPU per job), and the TaskManagers'
     * C2 compiled again at every job (1.5 s each of a 3 M-line job at {@code -p 4}, 3.5 to 4 s each in a first job)
     * for code that saved less than that.
     */
    static final Map<String, String> RECOMMENDED = Map.of(
            "classloader.parent-first-patterns.additional", "dev.outlierlab.",
            "env.java.opts.jobmanager", "-XX:TieredStopAtLevel=1",
            "env.java.opts.taskmanager", "-XX:TieredStopAtLevel=1");

    /** The directory of {@code config.yaml}, {@code FLINK_CONF_DIR} of every JVM. */
    final Path conf;

    final int restPort;
    /** The JVM options of Flink's client, then the configuration's {@code env.java.opts.client}, as bin/flink. */
    final List<String> clientOptions = new ArrayList<>(List.of("-Xmx256m", "-XX:+UseSerialGC"));
    /** {@code env.java.opts.jobmanager} and {@code env.java.opts.taskmanager}, as Flink's scripts add them. */
    private final List<String> jobManagerOptions = new ArrayList<>();

    private final List<String> taskManagerOptions = new ArrayList<>();

    /**
     * Writes the configuration of a cluster in {@code dir}: every address 127.0.0.1, free ports, two slots per
     * TaskManager, small memory, and {@code extra} settings.
     */
    ClusterConfig(Path dir, Map<String, String> extra) throws IOException {
        this.conf = dir.resolve("conf");
        Files.createDirectories(conf);
        Files.createDirectories(dir.resolve("tmp"));
        restPort = freePort();
        StringBuilder yaml = new StringBuilder();
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("jobmanager.rpc.address", "127.0.0.1");
        settings.put("jobmanager.rpc.port", Integer.toString(freePort()));
        settings.put("jobmanager.bind-host", "127.0.0.1");
        settings.put("rest.address", "127.0.0.1");
        settings.put("rest.bind-address", "127.0.0.1");
        settings.put("rest.port", Integer.toString(restPort));
        settings.put("blob.server.port", Integer.toString(freePort()));
        settings.put("taskmanager.host", "127.0.0.1");
        settings.put("taskmanager.bind-host", "127.0.0.1");
        settings.put("taskmanager.numberOfTaskSlots", "2");
        settings.put("jobmanager.memory.process.size", "768m");
        // network memory for two slots' batch shuffles: each result partition of a blocking (sort-merge) shuffle
        // takes taskmanager.network.sort-shuffle.min-buffers (512) buffers of 32 KB, so that 64m (2,048
        // buffers) failed the deployment of two tasks at once ("Insufficient number of network buffers") and the
        // job only went through after restarts
        settings.put("taskmanager.memory.process.size", "1216m");
        settings.put("taskmanager.memory.managed.size", "96m");
        settings.put("taskmanager.memory.network.min", "128m");
        settings.put("taskmanager.memory.network.max", "128m");
        settings.put("io.tmp.dirs", dir.resolve("tmp").toString());
        settings.put("parallelism.default", "1");
        settings.put("env.java.opts.all", String.join(" ", JAVA_OPTS));
        settings.putAll(extra);
        clientOptions.addAll(split(settings.getOrDefault("env.java.opts.client", "")));
        jobManagerOptions.addAll(split(settings.getOrDefault("env.java.opts.jobmanager", "")));
        taskManagerOptions.addAll(split(settings.getOrDefault("env.java.opts.taskmanager", "")));
        settings.forEach((k, v) -> yaml.append(k).append(": ").append(v).append('\n'));
        Files.writeString(conf.resolve("config.yaml"), yaml);
        // as the distribution's conf/log4j.properties: each JVM's log to the file its -Dlog.file names
        Files.writeString(
                conf.resolve("log4j.properties"),
                String.join(
                        "\n",
                        "rootLogger.level = INFO",
                        "rootLogger.appenderRef.file.ref = MainAppender",
                        "appender.main.name = MainAppender",
                        "appender.main.type = File",
                        "appender.main.append = false",
                        "appender.main.fileName = ${sys:log.file}",
                        "appender.main.layout.type = PatternLayout",
                        "appender.main.layout.pattern = %d{HH:mm:ss,SSS} %-5p %c{1} - %m%n",
                        ""));
    }

    /** A JVM's options and its program's arguments before any of the caller's. */
    record Command(List<String> jvmOptions, List<String> program) {}

    /**
     * The JobManager's: its memory flags and {@code env.java.opts.jobmanager}; {@code --configDir} and its memory
     * as dynamic settings.
     */
    Command jobManager() {
        Configuration c = GlobalConfiguration.loadConfiguration(conf.toString());
        JobManagerProcessSpec spec = JobManagerProcessUtils.processSpecFromConfig(c);
        List<String> options = new ArrayList<>(split(JobManagerProcessUtils.generateJvmParametersStr(spec, c)));
        options.addAll(jobManagerOptions);
        List<String> program = new ArrayList<>(List.of("--configDir", conf.toString()));
        program.addAll(split(JobManagerProcessUtils.generateDynamicConfigsStr(spec)));
        return new Command(options, program);
    }

    /** A TaskManager's, as {@link #jobManager} the JobManager's. */
    Command taskManager() {
        Configuration c = GlobalConfiguration.loadConfiguration(conf.toString());
        TaskExecutorProcessSpec spec = TaskExecutorProcessUtils.processSpecFromConfig(c);
        List<String> options = new ArrayList<>(split(ProcessMemoryUtils.generateJvmParametersStr(spec)));
        options.addAll(taskManagerOptions);
        List<String> program = new ArrayList<>(List.of("--configDir", conf.toString()));
        program.addAll(split(TaskExecutorProcessUtils.generateDynamicConfigsStr(spec)));
        return new Command(options, program);
    }

    /** The JVM options that name the log file and the log configuration of a JVM whose log is {@code log}. */
    List<String> logOptions(Path log) {
        return List.of(
                "-Dlog.file=" + log,
                "-Dlog4j.configurationFile=" + conf.resolve("log4j.properties").toUri());
    }

    static List<String> split(String s) {
        List<String> out = new ArrayList<>();
        for (String part : s.trim().split("\\s+")) {
            if (!part.isEmpty()) {
                out.add(part);
            }
        }
        return out;
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
