package dev.outlierlab.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code liveRecordAt} of two builds of the live pool, run alternately in one JVM: each benchmark jar gets its
 * own class loader (so its own pool classes and its own compiled code), and short runs of each, with 1, 2 or
 * 4 threads, alternate many times. On a machine shared with other work the load changes from one minute to
 * the next; alternating runs puts both builds under the same load, and the medians compare them where two
 * separate runs of {@link LiveCpuTime} cannot. It reports, for each jar, the thread CPU time per call (min
 * and median over the runs after the first quarter) and the median of each run's wall time per call over
 * the stretches with every thread on a core (see {@link LiveCpuTime.Result}). The run itself is
 * {@link LiveRecordRun}, loaded from this jar into each build's class loader; it uses only the pool's public
 * API, so any build of it can be compared. Usage:
 * {@code java -cp bench/target/benchmarks.jar dev.outlierlab.bench.LiveRecordAb THREADS RUNS CALLS A.jar B.jar}.
 */
public final class LiveRecordAb {
    private LiveRecordAb() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 5) {
            System.err.println("usage: LiveRecordAb THREADS RUNS CALLS_PER_THREAD A.jar B.jar [more jars]");
            System.exit(2);
        }
        int threads = Integer.parseInt(args[0]);
        int runs = Integer.parseInt(args[1]);
        int calls = Integer.parseInt(args[2]);
        List<String> jars = Arrays.asList(args).subList(3, args.length);
        List<Method> run = new ArrayList<>();
        for (String jar : jars) {
            run.add(new BuildLoader(Path.of(jar))
                    .loadClass(LiveRecordRun.class.getName())
                    .getMethod("run", int.class, int.class));
        }
        double[][] cpu = new double[jars.size()][runs];
        double[][] onCore = new double[jars.size()][runs];
        for (int r = 0; r < runs; r++) {
            for (int j = 0; j < jars.size(); j++) {
                double[] result = (double[]) run.get(j).invoke(null, threads, calls);
                cpu[j][r] = result[0];
                onCore[j][r] = result[1];
            }
        }
        System.out.println(
                "threads " + threads + ", " + runs + " runs of " + calls + " calls a thread, alternating; load "
                        + Files.readString(Path.of("/proc/loadavg")).trim());
        for (int j = 0; j < jars.size(); j++) {
            double[] c = Arrays.copyOfRange(cpu[j], runs / 4, runs);
            Arrays.sort(c);
            double[] w = Arrays.stream(onCore[j], runs / 4, runs)
                    .filter(x -> !Double.isNaN(x))
                    .sorted()
                    .toArray();
            System.out.printf(
                    Locale.ROOT,
                    "%s: CPU ns/call min %.1f median %.1f; wall ns/call with every thread on a core: "
                            + "median %s over %d runs%n",
                    jars.get(j),
                    c[0],
                    c[c.length / 2],
                    w.length == 0 ? "-" : String.format(Locale.ROOT, "%.1f", w[w.length / 2]),
                    w.length);
        }
    }

    /**
     * Loads a build's classes from its jar, and {@link LiveRecordRun} from this jar's bytes, so that the run's
     * references to the pool resolve to the build's classes.
     */
    private static final class BuildLoader extends URLClassLoader {
        BuildLoader(Path jar) throws IOException {
            super(new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            if (name.equals(LiveRecordRun.class.getName())) {
                String resource = name.replace('.', '/') + ".class";
                try (InputStream in = LiveRecordAb.class.getClassLoader().getResourceAsStream(resource)) {
                    byte[] bytes = in.readAllBytes();
                    return defineClass(name, bytes, 0, bytes.length);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            return super.findClass(name);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                if (name.equals(LiveRecordRun.class.getName())) {
                    Class<?> c = findLoadedClass(name);
                    return c != null ? c : findClass(name);
                }
                return super.loadClass(name, resolve);
            }
        }
    }
}
