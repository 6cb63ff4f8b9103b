package dev.outlierlab.tune;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.engine.Durations;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code tune --format json}: the request, the suite, the current settings, every row of the front and the
 * recommendation, each with every scenario's figures seed by seed (beside detection off and the correct action),
 * and the recommended file, its diff, check's findings, why, and what cannot run or be caught. Fields in a fixed
 * order and numbers rounded to four decimals, so the same inputs give the same bytes.
 */
public final class TuneJson {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private TuneJson() {}

    public static String write(TuneResult r) {
        try {
            return MAPPER.writeValueAsString(tree(r)) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public static ObjectNode tree(TuneResult r) {
        ObjectNode root = MAPPER.createObjectNode();
        TuneRequest q = r.request();
        ObjectNode req = root.putObject("request");
        req.put("name", q.name());
        req.put("from", q.source());
        req.put("hosts", q.hosts());
        req.put("rps", q.rps());
        req.put("clients", q.clients());
        req.put("target", q.target().flag());
        // the Envoy release applies only where the target runs on Envoy
        req.put(
                "envoy_version",
                q.target().can(Target.Can.ENVOY_FIELDS) ? q.envoyVersion().toString() : null);
        req.put("seeds", q.seeds());
        req.put("screen_seeds", q.screenSeeds());
        req.put("max_ejected", q.maxEjected());
        num(req, "base_error_percent", q.baseErrorPpm() / 10_000.0);
        req.put(
                "health_checks",
                q.healthChecks() == null
                        ? null
                        : "every " + Durations.format(q.healthChecks().intervalNanos()) + ", unhealthy after "
                                + q.healthChecks().unhealthyThreshold()
                                + ", healthy after " + q.healthChecks().healthyThreshold());
        ArrayNode notes = req.putArray("notes");
        r.words().say(q.notes()).forEach(notes::add);
        ArrayNode suite = root.putArray("suite");
        for (SuiteScenario s : q.suite()) {
            ObjectNode n = suite.addObject();
            n.put("name", s.name());
            n.put("description", s.description());
            n.put("expect", s.expect().key());
            n.put("hosts", s.scenario().cluster().size());
            n.put("rps", s.scenario().traffic().rps());
            ArrayNode eject = n.putArray("should_eject");
            s.shouldEject().stream().sorted().forEach(eject::add);
            n.put("single_host", s.singleHost());
            num(n, "fault_start_seconds", s.faultStartNanos() / 1e9);
            num(n, "fault_end_seconds", s.faultEndNanos() / 1e9);
        }
        ArrayNode none = root.putArray("not_simulated");
        new TreeMap<>(DefaultSuite.NOT_DETECTABLE)
                .forEach((k, v) -> none.addObject().put("name", k).put("why", v));
        root.set("current", evaluation(r.current(), q));
        ArrayNode front = root.putArray("front");
        r.front().forEach(e -> front.add(evaluation(e, q).put("recommended", e == r.recommended())));
        ObjectNode rec = evaluation(r.recommended(), q);
        rec.put("file", r.recommendedFile());
        rec.put("spliced", r.deployable() != null && r.deployable().text() != null);
        rec.put("patch", r.deployable() == null ? null : r.deployable().patch());
        rec.put("diff", r.diff());
        ArrayNode check = rec.putArray("check");
        r.words().say(r.recommendationFindings()).forEach(check::add);
        root.set("recommended", rec);
        root.put("headline", r.headline());
        if (r.breaks() != null) {
            ObjectNode b = root.putObject("breaks_when");
            b.put("shared_outage_percent", r.breaks().sharedOutagePercent());
            num(b, "noise_percent", r.breaks().noisePpm() < 0 ? -1 : r.breaks().noisePpm() / 10_000.0);
            b.put("caught_within_a_minute_percent", r.breaks().caughtPercent());
            // what the callers pay there: failed requests beyond detection off per 1,000 (null where it never ejects)
            num(b, "shared_outage_added_failures_per_thousand", r.breaks().outageAddedPerThousand());
            num(b, "noise_added_failures_per_thousand", r.breaks().noiseAddedPerThousand());
            b.put("words", r.breaks().words());
            // every condition run, with its runs (one a seed) and those that ejected or caught the failing host
            tallies(b.putArray("shared_outage_runs"), r.breaks().outageRuns(), 1, "ejecting");
            tallies(b.putArray("noise_runs"), r.breaks().noiseRuns(), 10_000, "ejecting");
            tallies(b.putArray("partial_failure_runs"), r.breaks().partialRuns(), 1, "caught_within_a_minute");
            ArrayNode seeds = b.putArray("seeds");
            Arrays.stream(BreakingPoints.SEEDS).forEach(seeds::add);
            ArrayNode edgeSeeds = b.putArray("edge_seeds");
            Arrays.stream(BreakingPoints.EDGE_SEEDS).forEach(edgeSeeds::add);
        }
        root.put("why", r.words().say(r.why()));
        ArrayNode detectors = root.putArray("detectors");
        r.words().say(r.detectors()).forEach(detectors::add);
        List<String> cannotSet = r.words().cannotSet(q);
        if (!cannotSet.isEmpty()) {
            ObjectNode c = root.putObject("cannot_set");
            c.put("words", String.join(" ", cannotSet.subList(0, cannotSet.size() - 1)));
            c.put("patch", cannotSet.get(cannotSet.size() - 1));
        }
        ArrayNode cannot = root.putArray("cannot_catch");
        r.words().say(r.cannotCatch()).forEach(cannot::add);
        ObjectNode search = root.putObject("search");
        search.put("candidates", r.candidates());
        search.put("runs", r.runs());
        return root;
    }

    /**
     * The lab scenario that shows a setting at work: the default scenario's case (one host failing a third of its requests)
     * or the first should-eject scenario of the suite, seed 1, with the setting as the target translates it; the
     * browser's Tune view opens it in the lab.
     */
    static Map<String, Object> labScenario(Evaluation e, TuneRequest q) {
        SuiteScenario show = q.suite().stream()
                .filter(s -> s.name().equals("one-host-partial"))
                .findFirst()
                .orElse(q.suite().stream()
                        .filter(s -> s.expect() == Expectation.EJECT)
                        .findFirst()
                        .orElse(q.suite().get(0)));
        var scenario = show.with(1, e.written().config(), e.written().panicThresholdPercent(), q.envoyVersion());
        return e.written().profile().labScenario(scenario);
    }

    static ObjectNode evaluation(Evaluation e, TuneRequest q) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("candidate", e.candidate());
        n.put("label", q.target().label(e.setting(), e.written().profile()));
        // the setting in the target's own fields, as its file says them (Target#fields; docs/output-formats.md)
        n.set("setting", MAPPER.valueToTree(q.target().fields(e.setting(), e.written(), q.envoyVersion())));
        return scored(n, e, q);
    }

    private static ObjectNode scored(ObjectNode n, Evaluation e, TuneRequest q) {
        num(n, "benefit_percent", e.benefitPercent());
        num(n, "worst_seed_benefit_percent", e.worstSeedBenefitPercent());
        num(n, "harm", e.harm());
        num(n, "false_ejections", e.falseEjections());
        num(n, "added_failure_points", e.addedFailurePoints());
        // where nothing should be ejected: the callers' cost of the setting against detection off
        ObjectNode where = n.putObject("added_failures_where_none_should_go");
        where.put("scenario", e.addedFailuresScenario());
        num(where, "per_thousand", e.addedFailuresScenario() == null ? Double.NaN : e.addedFailuresPerThousand());
        num(where, "per_day", e.addedFailuresScenario() == null ? Double.NaN : e.addedFailuresPerDay());
        num(where, "allowed_per_thousand", e.allowedAddedPerThousand());
        num(n, "detect_seconds", e.detectSeconds());
        num(n, "return_seconds", e.returnSeconds());
        n.put("admissible", e.admissible());
        ArrayNode v = n.putArray("violations");
        TuneWords.of(q, null).say(e.violations()).forEach(v::add);
        n.set("lab_scenario", MAPPER.valueToTree(labScenario(e, q)));
        ArrayNode scenarios = n.putArray("scenarios");
        for (ScenarioScore sc : e.scores()) {
            ObjectNode o = scenarios.addObject();
            o.put("name", sc.scenario().name());
            num(o, "removed_percent", sc.removedPercent());
            num(o, "failed_percent_during_fault", sc.failedPercentDuringFault(false));
            num(o, "failed_percent_during_fault_off", sc.failedPercentDuringFault(true));
            if (sc.retried()) {
                // failed: the callers' (the objective's); upstream: the attempts', what the detectors see
                num(o, "upstream_failed_percent", sc.upstreamFailedPercent());
            }
            if (sc.delayed()) {
                // answered only after waiting for a timed-out attempt: counted in removed_percent as failures are
                num(o, "slow_per_thousand", sc.slowPerThousand(false));
                num(o, "slow_per_thousand_off", sc.slowPerThousand(true));
                num(o, "slow_wait_seconds", sc.waitSeconds());
            }
            num(o, "added_failures_per_thousand", sc.addedFailuresPerThousand());
            num(o, "false_ejections", sc.falseEjections());
            num(o, "healthy_ejected_seconds", sc.healthyEjectedSeconds());
            o.put("most_ejected", sc.maxEjectedAtOnce());
            num(o, "panic_seconds", sc.panicSeconds());
            num(o, "detect_seconds", sc.detectSeconds());
            num(o, "return_seconds", sc.returnSeconds());
            ArrayNode seeds = o.putArray("seeds");
            for (int i = 0; i < sc.runs().size(); i++) {
                RunFigures f = sc.runs().get(i);
                ObjectNode x = seeds.addObject();
                x.put("seed", i + 1);
                x.put("requests", f.requests());
                x.put("failed", f.failed());
                x.put("requests_during_fault", f.requestsDuringFault());
                x.put("failed_during_fault", f.failedDuringFault());
                if (sc.retried()) {
                    x.put("upstream_attempts", f.upstreamAttempts());
                    x.put("upstream_failed", f.upstreamFailed());
                }
                if (sc.delayed()) {
                    x.put("slow", f.delayedRequests());
                    num(x, "slow_wait_seconds", f.delayNanos() / 1e9);
                    x.put("slow_off", sc.off().get(i).delayedRequests());
                    x.put("slow_correct", sc.correct().get(i).delayedRequests());
                }
                x.put("ejections", f.ejections());
                x.put("overflows", f.overflows());
                x.put("false_ejections", f.falseEjections());
                num(x, "healthy_ejected_seconds", f.healthyEjectedNanos() / 1e9);
                x.put("most_ejected", f.maxEjectedAtOnce());
                num(x, "panic_seconds", f.panicNanos() / 1e9);
                num(x, "detect_seconds", f.detectNanos() < 0 ? Double.NaN : f.detectNanos() / 1e9);
                num(x, "return_seconds", f.returnNanos() / 1e9);
                x.put("failed_off", sc.off().get(i).failed());
                x.put("failed_correct", sc.correct().get(i).failed());
                num(x, "removed_percent", sc.removedPercent(i));
            }
        }
        return n;
    }

    /** Keys and values in the order given (a {@code Map.of}'s order changes from one JVM to the next). */
    /**
     * A scale's conditions as {@code {"percent": 30, "runs": 20, "ejecting": 1}}, mildest first; {@code perPercent}
     * is 1 for levels in whole percentages, 10,000 for parts per million.
     */
    private static void tallies(ArrayNode out, List<ProbeTally> tallies, long perPercent, String hits) {
        for (ProbeTally t : tallies) {
            ObjectNode o = out.addObject();
            if (perPercent == 1) {
                o.put("percent", t.level());
            } else {
                // parts per million as a plain percentage: 0.5, 1, 12 (never 1E+1)
                BigDecimal pct = BigDecimal.valueOf(t.level(), 4).stripTrailingZeros();
                o.put("percent", pct.scale() < 0 ? pct.setScale(0) : pct);
            }
            o.put("runs", t.runs());
            o.put(hits, t.hits());
        }
    }

    private static void num(ObjectNode n, String key, double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            n.putNull(key);
        } else {
            BigDecimal v =
                    BigDecimal.valueOf(d).setScale(4, RoundingMode.HALF_EVEN).stripTrailingZeros();
            // 30 is written 30, not 3E+1 (a stripped BigDecimal of a round number has a negative scale)
            n.put(key, v.scale() < 0 ? v.setScale(0) : v);
        }
    }
}
