package dev.outlierlab.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.engine.Outcome;
import dev.outlierlab.engine.gateway.GatewayAction;
import dev.outlierlab.engine.gateway.GatewayDetector;
import dev.outlierlab.engine.gateway.GatewayEvent;
import dev.outlierlab.engine.stage.CandidateStage;
import dev.outlierlab.engine.stage.StageAction;
import dev.outlierlab.report.GatewayResultJson;
import dev.outlierlab.report.ResultJson;
import dev.outlierlab.sim.RunWatcher;
import dev.outlierlab.sim.gateway.GatewayObserver;
import dev.outlierlab.sim.gateway.GatewayRunResult;
import dev.outlierlab.sim.gateway.GatewayScenario;
import dev.outlierlab.sim.gateway.GatewaySimulation;
import java.util.ArrayList;
import java.util.List;

/**
 * A gateway run for the browser: the JSON of {@code run --format json} (scenario, summary, events with their
 * explanations, notes on non-decisions) plus what the page draws, kept compact. {@code timeline}: for each
 * endpoint and process, the intervals it was out of rotation, {@code ejected} in prod or {@code virtual} in
 * shadow, built from the detector's own decisions (an ejection opens one, its return closes it, one still open
 * at the end runs to the duration). {@code series}: per time bin (1 s, longer when endpoints x seconds would
 * pass {@link #MAX_SERIES_POINTS}), requests, failed requests as the caller saw them, each endpoint's attempts
 * and failed attempts, and the stages recorded (eject, kept_all, would_eject). A {@link RunWatcher} is asked
 * every {@link RunWatcher#EVERY_REQUESTS} requests and may stop the run.
 */
final class GatewayLabRun {
    /** The most endpoint x bin cells in the per-endpoint series. */
    static final long MAX_SERIES_POINTS = 200_000;

    private static final ObjectMapper MAPPER = ResultJson.mapper();

    private GatewayLabRun() {}

    static ObjectNode run(GatewayScenario scenario, RunWatcher watcher) {
        Series series = new Series(scenario, watcher);
        GatewayRunResult result = GatewaySimulation.run(scenario, series);
        series.finish();
        ObjectNode root = GatewayResultJson.toTree(result);
        root.set("timeline", timeline(result));
        root.set("series", series.toJson());
        return root;
    }

    /** A gateway run without the page's series, whose {@code watcher} is asked as often and may stop it. */
    static GatewayRunResult runQuietly(GatewayScenario scenario, RunWatcher watcher) {
        long total = scenario.requestCount();
        return GatewaySimulation.run(scenario, new GatewayObserver() {
            @Override
            public void onStage(
                    long req,
                    int process,
                    long nowNanos,
                    CandidateStage stage,
                    int[] candidates,
                    int start,
                    int count) {
                if (req % RunWatcher.EVERY_REQUESTS == 0) {
                    watcher.progress(req, total);
                }
            }
        });
    }

    /** Out-of-rotation intervals per endpoint and process, in the order they began. */
    static ArrayNode timeline(GatewayRunResult r) {
        ArrayNode out = MAPPER.createArrayNode();
        int n = r.scenario().endpoints().size();
        int processes = r.scenario().gateway().processes();
        ObjectNode[] open = new ObjectNode[processes * n];
        for (GatewayEvent e : r.events()) {
            int k = e.process() * n + e.endpoint();
            if (e.action() == GatewayAction.RETURN) {
                if (open[k] != null) {
                    open[k].put("end", e.timeNanos() / 1e9);
                    open[k].put("open", false);
                    open[k] = null;
                }
                continue;
            }
            ObjectNode iv = out.addObject();
            iv.put("endpoint", e.endpointName());
            iv.put("process", e.process());
            iv.put("state", e.action() == GatewayAction.WOULD_EJECT ? "virtual" : "ejected");
            iv.put("reason", e.reason() == null ? null : e.reason().outputName());
            iv.put("start", e.timeNanos() / 1e9);
            iv.put("end", r.scenario().durationNanos() / 1e9);
            iv.put("open", true);
            open[k] = iv;
        }
        return out;
    }

    /** Counts per time bin, gathered as the run goes; also the run's watcher. */
    private static final class Series implements GatewayObserver {
        private final GatewayScenario scenario;
        private final RunWatcher watcher;
        private final long total;
        private final long stepNanos;
        private final int bins;
        private final long[] requests;
        private final long[] failedRequests;
        private final long[][] attempts;
        private final long[][] failures;
        private final long[] ejectStages;
        private final long[] keptAllStages;
        private final long[] wouldEjectStages;
        private long request = -1;
        private int requestBin;
        private boolean requestFailed;

        Series(GatewayScenario scenario, RunWatcher watcher) {
            this.scenario = scenario;
            this.watcher = watcher;
            this.total = scenario.requestCount();
            int n = scenario.endpoints().size();
            long seconds = Math.max(1, (scenario.durationNanos() + 999_999_999L) / 1_000_000_000L);
            long maxBins = Math.max(1, MAX_SERIES_POINTS / n);
            long step = (seconds + maxBins - 1) / maxBins;
            this.stepNanos = step * 1_000_000_000L;
            this.bins = (int) ((scenario.durationNanos() + stepNanos - 1) / stepNanos);
            this.requests = new long[bins];
            this.failedRequests = new long[bins];
            this.attempts = new long[n][bins];
            this.failures = new long[n][bins];
            this.ejectStages = new long[bins];
            this.keptAllStages = new long[bins];
            this.wouldEjectStages = new long[bins];
        }

        private int bin(long nowNanos) {
            return (int) Math.min(bins - 1, nowNanos / stepNanos);
        }

        @Override
        public void onStage(
                long req, int process, long nowNanos, CandidateStage stage, int[] candidates, int start, int count) {
            if (req % RunWatcher.EVERY_REQUESTS == 0) {
                watcher.progress(req, total);
            }
            int b = bin(nowNanos);
            requests[b]++;
            StageAction action = stage.action();
            if (action == StageAction.EJECT) {
                ejectStages[b]++;
            } else if (action == StageAction.KEPT_ALL) {
                keptAllStages[b]++;
            } else if (action == StageAction.WOULD_EJECT) {
                wouldEjectStages[b]++;
            }
        }

        @Override
        public void onAttempt(
                long req,
                int process,
                long nowNanos,
                int attempt,
                int endpoint,
                int outcome,
                GatewayDetector detector) {
            if (req != request) {
                finish();
                request = req;
            }
            int b = bin(nowNanos);
            requestBin = b;
            boolean failed = Outcome.isFailure(outcome);
            requestFailed = failed;
            attempts[endpoint][b]++;
            if (failed) {
                failures[endpoint][b]++;
            }
        }

        /** Counts the last request seen as failed when its last attempt failed. */
        void finish() {
            if (request >= 0 && requestFailed) {
                failedRequests[requestBin]++;
            }
            requestFailed = false;
        }

        ObjectNode toJson() {
            ObjectNode n = MAPPER.createObjectNode();
            n.put("step", stepNanos / 1e9);
            ArrayNode time = n.putArray("time");
            for (int b = 0; b < bins; b++) {
                time.add(b * (stepNanos / 1e9));
            }
            put(n, "requests", requests);
            put(n, "failed_requests", failedRequests);
            ObjectNode a = n.putObject("attempts");
            ObjectNode f = n.putObject("failed_attempts");
            List<String> names = new ArrayList<>(scenario.endpoints());
            for (int e = 0; e < names.size(); e++) {
                put(a, names.get(e), attempts[e]);
                put(f, names.get(e), failures[e]);
            }
            ObjectNode stages = n.putObject("stages");
            put(stages, "eject", ejectStages);
            put(stages, "kept_all", keptAllStages);
            put(stages, "would_eject", wouldEjectStages);
            return n;
        }

        private static void put(ObjectNode n, String key, long[] values) {
            ArrayNode arr = n.putArray(key);
            for (long v : values) {
                arr.add(v);
            }
        }
    }
}
