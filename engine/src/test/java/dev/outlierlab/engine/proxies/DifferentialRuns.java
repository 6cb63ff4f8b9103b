package dev.outlierlab.engine.proxies;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;

/**
 * Runs a differential test's scenarios against a real proxy four at a time (each in its own directory, with its own
 * ports), then gives one dynamic test per scenario that checks the replay of what the proxy logged.
 */
public final class DifferentialRuns {
    private static final int AT_ONCE = 4;
    private static final long WAIT_SECONDS = 60;

    private DifferentialRuns() {}

    /** Drives one scenario against the real proxy in {@code dir} and replays its logs through the lab. */
    @FunctionalInterface
    public interface Run<S, R> {
        R run(S scenario, Path dir) throws Exception;
    }

    /** Checks one scenario's replay. */
    @FunctionalInterface
    public interface Check<S, R> {
        void check(S scenario, R replay) throws Exception;
    }

    /** Starts every scenario (in {@code tmp}/s0, s1, ...) and returns a test per scenario, named by {@code name}. */
    public static <S, R> Stream<DynamicTest> inParallel(
            List<S> scenarios, Path tmp, Function<S, String> name, Run<S, R> run, Check<S, R> check)
            throws IOException {
        ExecutorService pool = Executors.newFixedThreadPool(AT_ONCE);
        List<Future<R>> results = new ArrayList<>();
        for (int i = 0; i < scenarios.size(); i++) {
            S s = scenarios.get(i);
            Path dir = Files.createDirectories(tmp.resolve("s" + i));
            results.add(pool.submit(() -> run.run(s, dir)));
        }
        pool.shutdown();
        List<DynamicTest> tests = new ArrayList<>();
        for (int i = 0; i < scenarios.size(); i++) {
            S s = scenarios.get(i);
            Future<R> f = results.get(i);
            tests.add(DynamicTest.dynamicTest(
                    name.apply(s), () -> check.check(s, f.get(WAIT_SECONDS, TimeUnit.SECONDS))));
        }
        return tests.stream();
    }
}
