package dev.outlierlab.flink;

import dev.outlierlab.accesslog.AccessLogWriter;
import dev.outlierlab.sim.scenario.FaultResult;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A fleet's access logs for the tests, made from a seed: one file per proxy instance, each with its upstream
 * clusters and hosts, one host of each cluster failing for a while (503s, then connect failures and timeouts),
 * requests without an upstream host, lines a little out of order (within the reorder window), a few far out
 * of order and a few that are not log lines at all (bad lines).
 */
final class FleetLogs {
    private FleetLogs() {}

    static List<String> write(Path dir, String format, int instances, int linesPerInstance, long seed)
            throws IOException {
        List<String> files = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < instances; i++) {
            Path file = dir.resolve(String.format("proxy-%02d.log", i));
            files.add(file.toString());
            try (Writer out = new BufferedWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8), 1 << 16)) {
                writeOne(out, format, linesPerInstance, random.split());
            }
        }
        return files;
    }

    private static void writeOne(Writer out, String format, int lines, SplittableRandom random) throws IOException {
        int clusters = 1 + random.nextInt(2);
        List<AccessLogWriter> writers = new ArrayList<>();
        List<StringWriter> buffers = new ArrayList<>();
        int[] hostsOf = new int[clusters];
        int[] failing = new int[clusters];
        for (int c = 0; c < clusters; c++) {
            hostsOf[c] = 3 + random.nextInt(6);
            failing[c] = random.nextInt(hostsOf[c]);
            List<String> hosts = new ArrayList<>();
            for (int h = 0; h < hostsOf[c]; h++) {
                hosts.add("10.0." + c + "." + h + ":8080");
            }
            StringWriter buffer = new StringWriter();
            buffers.add(buffer);
            AccessLogWriter.Format f =
                    format.equals("istio-1.5") ? AccessLogWriter.Format.istio : AccessLogWriter.Format.valueOf(format);
            writers.add(new AccessLogWriter(buffer, f, hosts, "service-" + c));
        }
        long nanos = random.nextLong(1_000_000_000L);
        long faultFrom = 30_000_000_000L + random.nextLong(60_000_000_000L);
        long faultTo = faultFrom + 60_000_000_000L + random.nextLong(120_000_000_000L);
        String held = null;
        for (int n = 0; n < lines; n++) {
            nanos += 1 + random.nextLong(600_000_000L / Math.max(1, lines / 400));
            int c = random.nextInt(clusters);
            int host = random.nextInt(hostsOf[c]);
            int code = 200;
            FaultResult result = null;
            double p = random.nextDouble();
            if (p < 0.002) {
                host = -1;
            } else if (host == failing[c] && nanos >= faultFrom && nanos < faultTo && p < 0.5) {
                double q = random.nextDouble();
                result = q < 0.8 ? FaultResult.EXT_FAILED : q < 0.9 ? FaultResult.CONNECT_FAILED : FaultResult.TIMEOUT;
                code = 503;
            } else if (p < 0.01) {
                code = 500 + random.nextInt(4);
                result = FaultResult.EXT_FAILED;
            }
            StringWriter buffer = buffers.get(c);
            buffer.getBuffer().setLength(0);
            writers.get(c).onRequest(nanos, host, code, result);
            String line = buffer.toString();
            if (format.equals("istio-1.5")) {
                // Istio 1.5's format: the mixer status where 1.9 has the response and termination details
                line = line.replaceFirst(" (via_upstream|no_healthy_upstream) - \"-\" ", " \"-\" \"-\" ");
            }
            double r = random.nextDouble();
            if (r < 0.0003) {
                out.write("not an access-log line " + n + "\n");
            }
            if (held != null) {
                out.write(line);
                out.write(held);
                held = null;
            } else if (r > 0.995) {
                held = line; // written after the next: a little out of order
            } else if (r > 0.9998 && n > 1000) {
                // a line from 30 s before: further back than the reorder window, a bad line
                buffer.getBuffer().setLength(0);
                writers.get(c).onRequest(nanos - 30_000_000_000L, Math.max(0, host), 200, null);
                out.write(line);
                out.write(buffer.toString());
            } else {
                out.write(line);
            }
        }
        if (held != null) {
            out.write(held);
        }
    }
}
