package dev.outlierlab.bench;

import com.sun.management.OperatingSystemMXBean;
import com.sun.management.ThreadMXBean;
import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.httpserver.BoundedHttpServer;
import dev.outlierlab.live.LivePool;
import dev.outlierlab.live.LivePoolBuilder;
import dev.outlierlab.live.httpclient.FailoverClient;
import dev.outlierlab.live.httpclient.LoopbackUpstream;
import dev.outlierlab.live.httpclient.ReverseProxy;
import dev.outlierlab.web.LabServer;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToDoubleFunction;

/**
 * What Jetty's unpooled heap buffers cost {@link BoundedHttpServer} against Jetty's own pooled setup, side by side
 * in one JVM: {@code serve}'s server ({@link LabServer}, {@code GET /}, the 20 KB page) and {@code proxy}'s
 * ({@link ReverseProxy} in front of a {@link LoopbackUpstream}, {@code GET /}), each started once with
 * {@link BoundedHttpServer#POOLED_BUFFERS_PROPERTY} {@code true} and once without, alternately, round after round.
 * The load is the JDK's HttpClient over HTTP/1.1 keep-alive: a fixed number of requests split over N threads, each
 * sending its share one after another. For each run it prints the requests per second, the CPU time and the bytes
 * allocated per request by the server's threads (every thread but the load's: for {@code proxy} that includes its
 * HttpClient to the upstream and the upstream itself, the same in both setups), and the whole process's CPU time per
 * request (the load and the garbage collector included); then the medians and the ratio unpooled / pooled. Usage:
 * {@code java -cp bench/target/benchmarks.jar dev.outlierlab.bench.BufferPoolCost [requests] [threads] [rounds]}
 * (defaults 20,000, 4, 5; a first round warms both setups up and is not counted).
 */
public final class BufferPoolCost {
    private static final ThreadMXBean THREADS = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static final OperatingSystemMXBean PROCESS =
            (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private BufferPoolCost() {}

    /** One run's figures, per request but the rate. */
    record Sample(double requestsPerSecond, double serverCpuNanos, double serverBytes, double processCpuNanos) {}

    /** A server under test, started with the buffer setup in force, and the URI to load. */
    private interface Target extends AutoCloseable {
        URI uri();

        @Override
        void close() throws Exception;
    }

    public static void main(String[] args) throws Exception {
        int requests = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        List<String> targets = List.of("serve", "proxy");
        Map<String, List<Sample>> samples = new HashMap<>();
        System.out.printf(
                Locale.ROOT,
                "%d requests over %d threads, keep-alive; %d rounds after a warm-up round%n",
                requests,
                threads,
                rounds);
        System.out.println("| round | target | buffers | requests/s | server CPU us/request | server bytes/request"
                + " | process CPU us/request |");
        System.out.println("|---|---|---|---|---|---|---|");
        for (int round = 0; round <= rounds; round++) {
            for (String target : targets) {
                // alternate which setup goes first, so that neither always runs on a machine warmed by the other
                boolean[] order = round % 2 == 0 ? new boolean[] {true, false} : new boolean[] {false, true};
                for (boolean pooled : order) {
                    Sample s = measure(target, pooled, requests, threads);
                    String label = pooled ? "pooled" : "unpooled";
                    System.out.printf(
                            Locale.ROOT,
                            "| %s | %s | %s | %.0f | %.1f | %.0f | %.1f |%n",
                            round == 0 ? "warm-up" : Integer.toString(round),
                            target,
                            label,
                            s.requestsPerSecond(),
                            s.serverCpuNanos() / 1000,
                            s.serverBytes(),
                            s.processCpuNanos() / 1000);
                    if (round > 0) {
                        samples.computeIfAbsent(target + " " + label, k -> new ArrayList<>())
                                .add(s);
                    }
                }
            }
        }
        System.out.println();
        System.out.println("Medians of the counted rounds, and the median of each round's ratio unpooled / pooled (the"
                + " two setups of a round ran a few seconds apart, so the ratio of a round is less subject to the"
                + " machine's drift than the ratio of the medians):");
        System.out.println("| target | requests/s pooled, unpooled (ratio) | server CPU us/request pooled, unpooled"
                + " (ratio) | server bytes/request pooled, unpooled (ratio) | process CPU us/request pooled,"
                + " unpooled (ratio) |");
        System.out.println("|---|---|---|---|---|");
        for (String target : targets) {
            List<Sample> p = samples.get(target + " pooled");
            List<Sample> u = samples.get(target + " unpooled");
            StringBuilder row = new StringBuilder("| " + target + " |");
            for (ToDoubleFunction<Sample> value : List.<ToDoubleFunction<Sample>>of(
                    Sample::requestsPerSecond,
                    s -> s.serverCpuNanos() / 1000,
                    Sample::serverBytes,
                    s -> s.processCpuNanos() / 1000)) {
                List<Double> ratios = new ArrayList<>();
                for (int i = 0; i < p.size(); i++) {
                    ratios.add(value.applyAsDouble(u.get(i)) / value.applyAsDouble(p.get(i)));
                }
                row.append(String.format(
                        Locale.ROOT,
                        " %.1f, %.1f (%.2fx) |",
                        median(p, value),
                        median(u, value),
                        median(ratios, Double::doubleValue)));
            }
            System.out.println(row);
        }
    }

    private static <T> double median(List<T> samples, ToDoubleFunction<T> value) {
        double[] v = samples.stream().mapToDouble(value).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    private static Target start(String target, boolean pooled) throws Exception {
        if (pooled) {
            System.setProperty(BoundedHttpServer.POOLED_BUFFERS_PROPERTY, "true");
        } else {
            System.clearProperty(BoundedHttpServer.POOLED_BUFFERS_PROPERTY);
        }
        try {
            if (target.equals("serve")) {
                LabServer lab = LabServer.start(LabServer.Options.of("127.0.0.1", 0));
                return new Target() {
                    @Override
                    public URI uri() {
                        return lab.uri();
                    }

                    @Override
                    public void close() {
                        lab.close();
                    }
                };
            }
            LoopbackUpstream upstream = LoopbackUpstream.start("a");
            LivePool pool =
                    LivePoolBuilder.gateway("proxy", GatewayConfig.defaults()).build();
            FailoverClient client = FailoverClient.builder(pool)
                    .attemptTimeout(Duration.ofSeconds(5))
                    .fallbacks(0)
                    .build();
            client.addUpstream("a", upstream.uri());
            ReverseProxy proxy = ReverseProxy.start(client, "127.0.0.1", 0);
            return new Target() {
                @Override
                public URI uri() {
                    return proxy.uri();
                }

                @Override
                public void close() throws Exception {
                    proxy.close();
                    upstream.close();
                }
            };
        } finally {
            System.clearProperty(BoundedHttpServer.POOLED_BUFFERS_PROPERTY);
        }
    }

    private static Sample measure(String name, boolean pooled, int requests, int threads) throws Exception {
        Set<Long> load = ConcurrentHashMap.newKeySet();
        load.add(Thread.currentThread().getId());
        AtomicInteger clientThreads = new AtomicInteger();
        ExecutorService clientExecutor = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "load-client-" + clientThreads.incrementAndGet());
            t.setDaemon(true);
            load.add(t.getId());
            return t;
        });
        try (Target target = start(name, pooled)) {
            Set<Long> before = ids();
            HttpClient http = HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .executor(clientExecutor)
                    .build();
            for (long id : ids()) {
                // the client's selector thread, started with the client
                if (!before.contains(id) && name(id).startsWith("HttpClient-")) {
                    load.add(id);
                }
            }
            HttpRequest get =
                    HttpRequest.newBuilder(target.uri().resolve("/")).GET().build();
            run(http, get, Math.max(threads, requests / 10), threads, load); // connections open, code warm
            Map<Long, long[]> start = snapshot(load);
            long processStart = PROCESS.getProcessCpuTime();
            long wallStart = System.nanoTime();
            run(http, get, requests, threads, load);
            long wall = System.nanoTime() - wallStart;
            long process = PROCESS.getProcessCpuTime() - processStart;
            long cpu = 0;
            long bytes = 0;
            for (Map.Entry<Long, long[]> e : snapshot(load).entrySet()) {
                long[] was = start.getOrDefault(e.getKey(), new long[2]);
                cpu += e.getValue()[0] - was[0];
                bytes += e.getValue()[1] - was[1];
            }
            return new Sample(
                    requests / (wall / 1e9),
                    cpu / (double) requests,
                    bytes / (double) requests,
                    process / (double) requests);
        } finally {
            clientExecutor.shutdownNow();
        }
    }

    /** Sends {@code requests} over {@code threads} threads, each its share one after another; all must be 200s. */
    private static void run(HttpClient http, HttpRequest get, int requests, int threads, Set<Long> load)
            throws InterruptedException {
        AtomicLong failures = new AtomicLong();
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < threads; w++) {
            int share = requests / threads + (w < requests % threads ? 1 : 0);
            Thread t = new Thread(
                    () -> {
                        for (int i = 0; i < share; i++) {
                            try {
                                HttpResponse<byte[]> r = http.send(get, HttpResponse.BodyHandlers.ofByteArray());
                                if (r.statusCode() != 200 || r.body().length == 0) {
                                    failures.incrementAndGet();
                                }
                            } catch (Exception e) {
                                failures.incrementAndGet();
                            }
                        }
                    },
                    "load-worker-" + w);
            load.add(t.getId());
            workers.add(t);
        }
        workers.forEach(Thread::start);
        for (Thread t : workers) {
            t.join();
        }
        if (failures.get() > 0) {
            throw new IllegalStateException(failures.get() + " of " + requests + " requests failed");
        }
    }

    private static Set<Long> ids() {
        Set<Long> ids = new HashSet<>();
        for (long id : THREADS.getAllThreadIds()) {
            ids.add(id);
        }
        return ids;
    }

    private static String name(long id) {
        var info = THREADS.getThreadInfo(id);
        return info == null ? "" : info.getThreadName();
    }

    /** CPU time and allocated bytes of every live thread but the load's. */
    private static Map<Long, long[]> snapshot(Set<Long> load) {
        Map<Long, long[]> values = new HashMap<>();
        for (long id : THREADS.getAllThreadIds()) {
            if (!load.contains(id)) {
                long cpu = THREADS.getThreadCpuTime(id);
                long bytes = THREADS.getThreadAllocatedBytes(id);
                if (cpu >= 0 && bytes >= 0) {
                    values.put(id, new long[] {cpu, bytes});
                }
            }
        }
        return values;
    }
}
