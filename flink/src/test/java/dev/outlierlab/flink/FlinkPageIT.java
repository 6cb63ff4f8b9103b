package dev.outlierlab.flink;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands docs/flink.md shows for Flink run as the page shows them, with bash, and give the local command's
 * answer, byte for byte ({@link FlinkPage}: each {@code sh} block names where it runs). With the jars the build
 * packages, so after {@code package}, as an integration test:
 *
 * <ul>
 *   <li>{@code flink-alone}: a Flink installation of Flink alone ({@link ClusterLayout#installed}); its {@code
 *       start-cluster.sh} starts a session cluster of a JobManager and one TaskManager of two slots, each a JVM of
 *       its own on 127.0.0.1 ({@link StandaloneCluster}: Flink's scripts are in {@code flink-dist}, which is not
 *       published), and {@code bin/flink} is Flink's client on the installation's class path; the shaded job jar
 *       submitted;
 *   <li>{@code flink-lib}: the same with the page's {@code cp} of {@code outlier-lab-flink-lib.jar} into {@code
 *       lib/} before the cluster starts, the settings of the page's {@code yaml} blocks for it, two TaskManagers,
 *       and the small job jar submitted;
 *   <li>{@code flink-local}: {@code ./outlier-lab ... --engine flink}, the job on Flink's local MiniCluster.
 * </ul>
 *
 * <p>The page's cluster and storage are this machine's: {@code jobmanager.example.com:8081} is the JobManager's REST
 * address, {@code -p N} the cluster's slots, {@code s3://mesh-logs/} and {@code /data/logs/} directories of the
 * scratch folder (the three Istio sidecars' logs of {@code docs/examples/replay/mesh/}, a generated Envoy log),
 * {@code payments-dr.yaml} {@code docs/examples/payments-destination-rule.yaml}, {@code logs/proxy-*.log}
 * generated Envoy logs. Each report (standard output without the client's "Job has been submitted" lines, or
 * {@code --output-dir}'s {@code report.txt}) is the local command's without {@code flink run}'s options, {@code
 * --engine flink --parallelism N} and {@code --output-dir}, with a directory given as its files in name order (the
 * job's head names the directory as given). A
 * block the page does not name (YARN, Kubernetes, Kafka, a Maven build) must be one of those.
 */
@Timeout(value = 30, unit = TimeUnit.MINUTES)
class FlinkPageIT {
    private static final Duration START = Duration.ofSeconds(120);
    private static final Duration COMMAND = Duration.ofMinutes(8);
    private static final Path REPO = Path.of("").toAbsolutePath().getParent();
    private static final Path TARGET = Path.of("target").toAbsolutePath();
    private static final Pattern PARALLELISM = Pattern.compile("-p [0-9]+");
    /** What a block that is not run here holds: what this machine has not (YARN, Kubernetes, Kafka, a build). */
    private static final List<String> NOT_RUN_HERE =
            List.of("yarn-application", "kubectl", "docker build", "kafka://", "mvn ");

    @TempDir
    Path dir;

    private Path scratch;
    private final Map<String, String> local = new HashMap<>();

    @Test
    void theCommandsOfTheFlinkPageGiveTheLocalAnswers() throws Exception {
        FlinkPage page = FlinkPage.read(REPO.resolve("docs/flink.md"));
        assertThat(page.on(""))
                .as("sh blocks of docs/flink.md that name no installation to run on")
                .allSatisfy(b -> assertThat(NOT_RUN_HERE)
                        .as("line " + b.line())
                        .anySatisfy(w -> assertThat(b.text()).contains(w)));
        assertThat(page.blocks().stream().map(FlinkPage.Block::installation).distinct())
                .containsExactlyInAnyOrder("", "flink-alone", "flink-lib", "flink-local");
        scratch = scratchFolder();

        // the shaded jar on Flink alone, then the libraries in lib/ with the page's settings for them
        onCluster(page.on("flink-alone"), Map.of(), 1);
        Map<String, String> settings = new LinkedHashMap<>(page.settingsWith("env.java.opts.client"));
        settings.putAll(page.settingsWith("classloader.parent-first-patterns.additional"));
        assertThat(settings).containsAllEntriesOf(ClusterConfig.RECOMMENDED);
        onCluster(page.on("flink-lib"), settings, 2);
        for (FlinkPage.Block block : page.on("flink-local")) {
            for (String command : block.commands()) {
                check(block, command, Map.of(), run(command, Map.of()));
            }
        }
    }

    /** Runs {@code blocks} on a Flink installation of its own, its cluster started by its start-cluster.sh. */
    private void onCluster(List<FlinkPage.Block> blocks, Map<String, String> settings, int taskManagers)
            throws Exception {
        assertThat(blocks).isNotEmpty();
        Path home = dir.resolve(blocks.get(0).installation());
        Files.createDirectories(home.resolve("lib"));
        Map<String, String> env = Map.of("FLINK_HOME", home.toString(), "PATH", home.resolve("bin") + ":" + path());
        StandaloneCluster cluster = null;
        try {
            for (FlinkPage.Block block : blocks) {
                for (String command : block.commands()) {
                    if (command.strip().equals("$FLINK_HOME/bin/start-cluster.sh")) {
                        assertThat(cluster)
                                .as("line " + block.line() + ": a second start")
                                .isNull();
                        ClusterLayout layout =
                                ClusterLayout.installed(home, TARGET.resolve("outlier-lab-flink.jar"), List.of());
                        cluster = new StandaloneCluster(home, layout, settings);
                        cluster.startSession(taskManagers, START);
                        writeClientScript(cluster, home.resolve("bin/flink"));
                        continue;
                    }
                    String here = command.replace("jobmanager.example.com:8081", "127.0.0.1:" + port(cluster))
                            .replace("s3://mesh-logs/", scratch.resolve("mesh-logs") + "/")
                            .replace("/data/logs/", scratch.resolve("data/logs") + "/");
                    here = PARALLELISM.matcher(here).replaceAll("-p " + 2 * taskManagers);
                    assertThat(here.contains("flink run") && cluster == null)
                            .as("line " + block.line() + ": submitted before start-cluster.sh")
                            .isFalse();
                    check(block, here, env, run(here, env));
                }
            }
        } finally {
            if (cluster != null) {
                cluster.close();
            }
        }
    }

    /**
     * Writes {@code file}, an executable script that starts Flink's command-line client as the distribution's
     * {@code bin/flink} does: {@code JVM_ARGS} from the environment first, then the client's options, the cluster's
     * class path and configuration ({@code FLINK_CONF_DIR} if set), its arguments. The distribution's scripts are
     * in {@code flink-dist}, which is not published as an artifact.
     */
    private static void writeClientScript(StandaloneCluster cluster, Path file) throws IOException {
        List<String> command = cluster.clientCommand();
        String script = "#!/usr/bin/env bash\n"
                + "export FLINK_CONF_DIR=\"${FLINK_CONF_DIR:-" + cluster.conf + "}\"\n"
                + "exec " + quoted(command.get(0)) + " $JVM_ARGS "
                + command.subList(1, command.size()).stream()
                        .map(FlinkPageIT::quoted)
                        .collect(Collectors.joining(" "))
                + " \"$@\"\n";
        Files.createDirectories(file.getParent());
        Files.writeString(file, script);
        assertThat(file.toFile().setExecutable(true)).isTrue();
    }

    /** {@code word} in single quotes for bash. */
    private static String quoted(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }

    private static int port(StandaloneCluster cluster) {
        return cluster == null ? 0 : cluster.restPort;
    }

    /** The command ended with 0 and its report is the local command's; an archive it names was written. */
    private void check(FlinkPage.Block block, String command, Map<String, String> env, Result result) throws Exception {
        String where = "docs/flink.md:" + block.line() + ": " + command + "\n" + result.err();
        assertThat(result.status()).as(where).isZero();
        List<String> words = words(command, env);
        for (String w : words) {
            Matcher archive = Pattern.compile("-XX:ArchiveClassesAtExit=(\\S+)").matcher(w);
            if (archive.find()) {
                assertThat(Path.of(archive.group(1))).as(where).isNotEmptyFile();
            }
        }
        List<String> args = toolArguments(words);
        if (args == null) {
            return; // not a command of the tool (cp)
        }
        int out = args.indexOf("--output-dir");
        String report = StandaloneCluster.withoutClientLines(result.out());
        if (out >= 0) {
            Path dirOut = Path.of(args.get(out + 1));
            int format = args.indexOf("--format");
            boolean json = format >= 0 && args.get(format + 1).equals("json");
            report = Files.readString(dirOut.resolve(json ? "report.json" : "report.txt"));
            try (Stream<Path> sections = Files.list(dirOut.resolve("detectors"))) {
                assertThat(sections.count()).as(where).isPositive();
            }
            args.remove(out + 1);
            args.remove(out);
        }
        assertThat(report).as(where).isEqualTo(local(args)).isNotBlank();
    }

    /**
     * The tool's arguments of {@code ./outlier-lab ARGS} without {@code --engine flink} and {@code --parallelism N}
     * or of {@code [VAR=VALUE...] [$FLINK_HOME/bin/]flink run [-m HOST:PORT] [-p N] JAR ARGS}; null for another.
     */
    private static List<String> toolArguments(List<String> words) {
        int i = 0;
        while (i < words.size() && words.get(i).matches("[A-Z_]+=.*")) {
            i++;
        }
        List<String> args = new ArrayList<>();
        if (words.get(i).equals("./outlier-lab")) {
            args.addAll(words.subList(i + 1, words.size()));
            int engine = args.indexOf("--engine");
            assertThat(args.subList(engine, engine + 2)).containsExactly("--engine", "flink");
            args.subList(engine, engine + 2).clear();
            int p = args.indexOf("--parallelism");
            if (p >= 0) {
                args.subList(p, p + 2).clear();
            }
            return args;
        }
        if (!words.get(i).endsWith("flink") || !words.get(i + 1).equals("run")) {
            return null;
        }
        for (i += 2; words.get(i).startsWith("-"); i += 2) {
            assertThat(words.get(i)).isIn("-m", "-p");
        }
        assertThat(words.get(i)).endsWith(".jar");
        args.addAll(words.subList(i + 1, words.size()));
        return args;
    }

    /**
     * The local command's standard output for {@code args}, a directory given as its files in name order (which
     * {@code replay} takes one by one), its head naming the directory as the job's does.
     */
    private String local(List<String> args) throws Exception {
        List<String> expanded = new ArrayList<>();
        Map<String, String> named = new LinkedHashMap<>();
        for (String a : args) {
            Path p = scratch.resolve(a);
            if (a.endsWith("/") && Files.isDirectory(p)) {
                try (Stream<Path> files = Files.walk(p)) {
                    List<String> in = files.filter(Files::isRegularFile)
                            .map(Path::toString)
                            .sorted()
                            .toList();
                    expanded.addAll(in);
                    named.put(String.join(", ", in), a);
                }
            } else {
                expanded.add(a);
            }
        }
        String command =
                "./outlier-lab " + expanded.stream().map(FlinkPageIT::quoted).collect(Collectors.joining(" "));
        if (!local.containsKey(command)) {
            Result r = run(command, Map.of());
            assertThat(r.status()).as(command + "\n" + r.err()).isZero();
            local.put(command, r.out());
        }
        String out = local.get(command);
        int head = out.indexOf('\n') + 1;
        String first = out.substring(0, head);
        for (Map.Entry<String, String> n : named.entrySet()) {
            first = first.replace(n.getKey(), n.getValue());
        }
        return first + out.substring(head);
    }

    /** {@code command}'s words as bash splits them (quotes, variables, globs) in the scratch folder. */
    private List<String> words(String command, Map<String, String> env) throws Exception {
        Result r = run("set -- " + command + "\nprintf '%s\\0' \"$@\"", env);
        assertThat(r.status()).as(r.err()).isZero();
        return new ArrayList<>(List.of(r.out().split("\0")));
    }

    private record Result(int status, String out, String err) {}

    /** Runs {@code command} with bash in the scratch folder, with {@code env} added. */
    private Result run(String command, Map<String, String> env) throws IOException, InterruptedException {
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        ProcessBuilder b = new ProcessBuilder("bash", "-c", command)
                .directory(scratch.toFile())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile());
        b.environment().putAll(env);
        Process p = b.start();
        if (!p.waitFor(COMMAND.toMillis(), TimeUnit.MILLISECONDS)) {
            StandaloneCluster.kill(p);
            throw new AssertionError("did not end within " + COMMAND + ": " + command + "\n" + Files.readString(err));
        }
        return new Result(
                p.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    /**
     * A folder that links to every top-level entry of the repository (so that {@code ./outlier-lab} and {@code
     * flink/target/...} are the checkout's and what a command writes stays out of it), with the page's files.
     */
    private Path scratchFolder() throws IOException {
        Path s = dir.resolve("scratch");
        Files.createDirectories(s);
        try (Stream<Path> entries = Files.list(REPO)) {
            for (Path e : (Iterable<Path>) entries::iterator) {
                Files.createSymbolicLink(s.resolve(e.getFileName()), e);
            }
        }
        Path mesh = s.resolve("mesh-logs/2026-11-30");
        Files.createDirectories(mesh);
        try (Stream<Path> logs = Files.list(REPO.resolve("docs/examples/replay/mesh"))) {
            for (Path l : (Iterable<Path>) logs::iterator) {
                Files.copy(l, mesh.resolve(l.getFileName()));
            }
        }
        Files.copy(REPO.resolve("docs/examples/payments-destination-rule.yaml"), s.resolve("payments-dr.yaml"));
        Files.createDirectories(s.resolve("data/logs"));
        FleetLogs.write(s.resolve("data/logs"), "envoy", 1, 15_000, 3);
        Files.createDirectories(s.resolve("logs"));
        FleetLogs.write(s.resolve("logs"), "envoy", 6, 5_000, 11);
        return s;
    }

    private static String path() {
        return System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
    }
}
