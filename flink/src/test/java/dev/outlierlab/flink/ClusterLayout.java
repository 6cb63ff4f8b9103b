package dev.outlierlab.flink;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

/**
 * What a {@link StandaloneCluster} runs: the job jar its client submits (main class {@code FlinkMain}) and the class
 * path of every JVM of the cluster (Flink and what its {@code lib/} holds), either split from the test's class path
 * ({@link #of}, before the module is packaged) or a Flink installation with the packaged jars ({@link #installed}).
 */
record ClusterLayout(Path jobJar, List<String> flinkClassPath) {
    /**
     * Splits the test's class path: the project's classes (directories and jars under the repository,
     * test classes left out) into the job jar, the rest (Flink and the libraries) for the cluster.
     */
    static ClusterLayout of(Path dir) throws IOException {
        Path repository = Path.of("").toAbsolutePath().getParent();
        List<String> flink = new ArrayList<>();
        Path jar = dir.resolve("outlier-lab-flink.jar");
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, FlinkMain.class.getName());
        Set<String> written = new HashSet<>();
        Map<String, StringBuilder> services = new TreeMap<>();
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest)) {
            written.add("META-INF/MANIFEST.MF");
            for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
                Path p = Path.of(entry).toAbsolutePath();
                if (!p.startsWith(repository)) {
                    if (!p.getFileName().toString().startsWith("slf4j-nop")) {
                        flink.add(entry); // the cluster logs through log4j, as Flink's distribution does
                    }
                } else if (Files.isDirectory(p) && !p.endsWith("test-classes")) {
                    addDirectory(out, p, written, services);
                } else if (Files.isRegularFile(p) && entry.endsWith(".jar")) {
                    addJar(out, p, written);
                }
            }
            // as the shaded jar's ServicesResourceTransformer: each module's registrations, merged
            for (Map.Entry<String, StringBuilder> e : services.entrySet()) {
                out.putNextEntry(new JarEntry(e.getKey()));
                out.write(e.getValue().toString().getBytes(StandardCharsets.UTF_8));
                out.closeEntry();
            }
        }
        return new ClusterLayout(jar, flink);
    }

    /**
     * A Flink installation as a user has one, with the packaged jars: {@code home/lib/} holds {@code libJars} (the
     * job's libraries, {@code outlier-lab-flink-lib.jar}, as docs/flink.md copies it there) and Flink's logging
     * (log4j, as the distribution's {@code lib/}), and the class path is built as Flink's {@code config.sh}
     * ({@code constructFlinkClassPath}) builds it: the jars of {@code lib/} in name order, then Flink itself. Flink
     * itself stands for the distribution's {@code flink-dist} jar, which is not published: the build's {@code
     * target/flink-lib/} (the job's {@code provided} Flink, without the SLF4J binding of the local MiniCluster),
     * {@code flink-container} (application mode), and the libraries {@code flink-dist} bundles that the build
     * leaves out of {@code target/flink-lib/} because the job has them too (Commons Lang, LZ4, Snappy; SLF4J's API
     * in the 1.7 line of Flink's log4j binding). Nothing else of the test's class path is on it.
     */
    static ClusterLayout installed(Path home, Path jobJar, List<Path> libJars) throws IOException {
        Path lib = home.resolve("lib");
        Files.createDirectories(lib);
        List<Path> dist = new ArrayList<>();
        try (Stream<Path> jars = Files.list(Path.of("target", "flink-lib"))) {
            jars.filter(j -> !j.getFileName().toString().startsWith("slf4j-"))
                    .sorted()
                    .forEach(j -> dist.add(j.toAbsolutePath()));
        }
        List<Path> logging = new ArrayList<>();
        Path slf4jApi = null;
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path jar = Path.of(entry);
            String name = jar.getFileName().toString();
            if (name.matches("(flink-container|commons-lang3|lz4-java|snappy-java)-[0-9].*\\.jar")) {
                dist.add(jar);
            } else if (name.matches("log4j-(api|core|slf4j-impl)-[0-9.]+\\.jar")) {
                logging.add(jar);
            } else if (name.startsWith("slf4j-nop-")) {
                // the API of the binding's version, beside it in the local repository (org/slf4j/NAME/VERSION/)
                String version = jar.getParent().getFileName().toString();
                slf4jApi = jar.getParent()
                        .getParent()
                        .resolveSibling("slf4j-api")
                        .resolve(version)
                        .resolve("slf4j-api-" + version + ".jar");
            }
        }
        if (dist.size() < 20 || logging.size() != 3 || slf4jApi == null || !Files.isRegularFile(slf4jApi)) {
            throw new IllegalStateException("no target/flink-lib/, log4j or SLF4J 1.7: the module is not packaged"
                    + " (mvn package) or this is not the module's test class path");
        }
        dist.add(slf4jApi);
        List<Path> installed = new ArrayList<>(libJars);
        installed.addAll(logging);
        for (Path jar : installed) {
            Path to = lib.resolve(jar.getFileName());
            Files.deleteIfExists(to);
            Files.createSymbolicLink(to, jar.toAbsolutePath());
        }
        List<String> classPath = new ArrayList<>();
        try (Stream<Path> jars = Files.list(lib)) {
            jars.sorted().forEach(j -> classPath.add(j.toString()));
        }
        dist.forEach(j -> classPath.add(j.toAbsolutePath().toString()));
        return new ClusterLayout(jobJar.toAbsolutePath(), classPath);
    }

    private static void addDirectory(
            JarOutputStream out, Path root, Set<String> written, Map<String, StringBuilder> services)
            throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile).sorted()::iterator) {
                String name = root.relativize(f).toString().replace(File.separatorChar, '/');
                if (name.startsWith("META-INF/services/")) {
                    services.computeIfAbsent(name, k -> new StringBuilder())
                            .append(Files.readString(f))
                            .append('\n');
                } else if (written.add(name)) {
                    out.putNextEntry(new JarEntry(name));
                    Files.copy(f, out);
                    out.closeEntry();
                }
            }
        }
    }

    private static void addJar(JarOutputStream out, Path jar, Set<String> written) throws IOException {
        try (JarFile in = new JarFile(jar.toFile())) {
            for (Enumeration<JarEntry> e = in.entries(); e.hasMoreElements(); ) {
                JarEntry entry = e.nextElement();
                if (!entry.isDirectory() && written.add(entry.getName())) {
                    out.putNextEntry(new JarEntry(entry.getName()));
                    try (InputStream i = in.getInputStream(entry)) {
                        i.transferTo(out);
                    }
                    out.closeEntry();
                }
            }
        }
    }
}
