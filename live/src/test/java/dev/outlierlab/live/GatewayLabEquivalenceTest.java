package dev.outlierlab.live;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.Outcome;
import dev.outlierlab.engine.gateway.CandidateRouter;
import dev.outlierlab.engine.gateway.GatewayAction;
import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.engine.gateway.GatewayDetector;
import dev.outlierlab.engine.gateway.GatewayEvent;
import dev.outlierlab.engine.gateway.PeerSet;
import dev.outlierlab.engine.gateway.RoutingConfig;
import dev.outlierlab.engine.gateway.RoutingStrategy;
import dev.outlierlab.engine.stage.CandidateStage;
import dev.outlierlab.engine.stage.StageAction;
import dev.outlierlab.engine.stage.StageMode;
import dev.outlierlab.sim.gateway.GatewayObserver;
import dev.outlierlab.sim.gateway.GatewayScenario;
import dev.outlierlab.sim.gateway.GatewaySimulation;
import dev.outlierlab.sim.scenario.FaultPattern;
import dev.outlierlab.sim.scenario.FaultResult;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.TrafficSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The live pool decides as the lab's gateway simulator does. A gateway scenario runs in the simulator with an
 * observer that keeps every request's time, process and routed list, every attempt's endpoint and outcome, and
 * every decision; then one live gateway pool per process, on a {@link ManualClock}, is driven with the same
 * requests and attempts at the same times (the stage through {@link LivePool#filter(List)}, the outcomes through
 * {@link LivePool#record(Endpoint, int, long)}). Decisions (eject, would_eject, return: time, endpoint, reason,
 * evidence with its numbers, return time, time out) and stage records (eject, would_eject, kept_all: time,
 * endpoints) must be equal, and so must every candidate list. On the scenarios of docs/gateway.md
 * and on 50 seeded random ones.
 */
class GatewayLabEquivalenceTest {
    private static final long S = Durations.SECOND;

    /**
     * What one process saw: its decisions and stage records, as comparable lines, and a digest of every candidate
     * list it routed over (the names in order, list by list).
     */
    private static final class Seen {
        final List<GatewayEvent> events = new ArrayList<>();
        final List<String> stages = new ArrayList<>();
        long lists;
        long listDigest;

        List<GatewayEvent> events() {
            return events;
        }

        List<String> stages() {
            return stages;
        }

        void list(String name, boolean first) {
            listDigest = listDigest * 1_000_003L + (first ? 7 : 0) + name.hashCode();
        }
    }

    /** One step of the run in order: a stage (attempt -1) or an attempt. */
    private record Step(int process, long timeNanos, int[] routed, int endpoint, int outcome) {}

    private static Seen[] lab(GatewayScenario scenario, List<Step> steps) {
        int processes = scenario.gateway().processes();
        int n = scenario.endpoints().size();
        Seen[] seen = newSeen(processes);
        CandidateRouter[] routers = new CandidateRouter[processes];
        for (int p = 0; p < processes; p++) {
            routers[p] = scenario.routing().newRouter(n);
        }
        GatewaySimulation.run(scenario, new GatewayObserver() {
            @Override
            public void onStage(
                    long request,
                    int process,
                    long nowNanos,
                    CandidateStage stage,
                    int[] candidates,
                    int start,
                    int count) {
                // The simulator's router for this process gave the same list: same strategy, same call order.
                int from = routers[process].next();
                int[] routed = Arrays.copyOfRange(routers[process].list(), from, from + n);
                steps.add(new Step(process, nowNanos, routed, -1, 0));
                List<String> named = new ArrayList<>();
                for (int k = 0; k < stage.concernedCount(); k++) {
                    named.add(scenario.endpoints().get(stage.concerned(k)));
                }
                if (stage.action() != StageAction.NONE) {
                    seen[process].stages().add(nowNanos + " " + stage.action() + " " + named);
                }
                seen[process].lists++;
                for (int k = 0; k < count; k++) {
                    seen[process].list(scenario.endpoints().get(candidates[start + k]), k == 0);
                }
            }

            @Override
            public void onAttempt(
                    long request,
                    int process,
                    long nowNanos,
                    int attempt,
                    int endpoint,
                    int outcome,
                    GatewayDetector detector) {
                steps.add(new Step(process, nowNanos, null, endpoint, outcome));
            }

            @Override
            public void onEvent(GatewayEvent event) {
                seen[event.process()].events().add(event);
            }
        });
        return seen;
    }

    private static Seen[] live(GatewayScenario scenario, List<Step> steps) {
        int processes = scenario.gateway().processes();
        Seen[] seen = newSeen(processes);
        ManualClock clock = new ManualClock();
        LivePool[] pools = new LivePool[processes];
        List<List<Endpoint>> members = new ArrayList<>();
        for (int p = 0; p < processes; p++) {
            int process = p;
            pools[p] = LivePoolBuilder.gateway("process-" + p, scenario.gateway())
                    .clock(clock)
                    .endpoints(scenario.endpoints())
                    .build();
            pools[p].addListener(new LiveListener() {
                @Override
                public void onDecision(LiveDecision decision) {
                    GatewayEvent e = (GatewayEvent) decision.detail();
                    // Each live pool is one process: the engine's detector in it is process 0.
                    seen[process]
                            .events()
                            .add(new GatewayEvent(
                                    e.timeNanos(),
                                    process,
                                    e.endpoint(),
                                    e.endpointName(),
                                    e.action(),
                                    e.reason(),
                                    e.evidence(),
                                    e.returnAtNanos(),
                                    e.outForNanos()));
                }
            });
            members.add(pools[p].endpoints());
        }
        for (Step step : steps) {
            LivePool pool = pools[step.process()];
            List<Endpoint> endpoints = members.get(step.process());
            if (step.routed() != null) {
                clock.set(step.timeNanos());
                List<Endpoint> routed = new ArrayList<>();
                for (int e : step.routed()) {
                    routed.add(endpoints.get(e));
                }
                Selection s = pool.filter(routed);
                if (s.stage() != null) {
                    seen[step.process()]
                            .stages()
                            .add(s.stage().timeNanos() + " " + s.stage().action() + " "
                                    + s.stage().endpoints());
                }
                seen[step.process()].lists++;
                for (int k = 0; k < s.candidates().size(); k++) {
                    seen[step.process()].list(s.candidates().get(k).name(), k == 0);
                }
            } else {
                Endpoint e = endpoints.get(step.endpoint());
                switch (step.outcome()) {
                    case Outcome.TIMEOUT -> pool.record(e, LocalFailure.TIMEOUT, step.timeNanos());
                    case Outcome.CONNECT_FAILED -> pool.record(e, LocalFailure.CONNECT_FAILED, step.timeNanos());
                    case Outcome.RESET -> pool.record(e, LocalFailure.RESET, step.timeNanos());
                    default -> pool.record(e, step.outcome(), step.timeNanos());
                }
            }
        }
        return seen;
    }

    private static Seen[] newSeen(int processes) {
        Seen[] seen = new Seen[processes];
        for (int p = 0; p < processes; p++) {
            seen[p] = new Seen();
        }
        return seen;
    }

    /** Runs both and compares; returns the lab's decisions of every process, for the caller's own checks. */
    private static List<GatewayEvent> assertSame(String what, GatewayScenario scenario) {
        return assertSame(what, scenario, new ArrayList<>());
    }

    private static List<GatewayEvent> assertSame(String what, GatewayScenario scenario, List<Step> steps) {
        Seen[] lab = lab(scenario, steps);
        Seen[] live = live(scenario, steps);
        List<GatewayEvent> all = new ArrayList<>();
        for (int p = 0; p < lab.length; p++) {
            assertThat(live[p].events())
                    .as("%s, process %d: decisions", what, p)
                    .isEqualTo(lab[p].events());
            assertThat(live[p].stages())
                    .as("%s, process %d: stage records", what, p)
                    .isEqualTo(lab[p].stages());
            assertThat(live[p].lists)
                    .as("%s, process %d: requests", what, p)
                    .isEqualTo(lab[p].lists)
                    .isPositive();
            assertThat(live[p].listDigest)
                    .as("%s, process %d: candidate lists", what, p)
                    .isEqualTo(lab[p].listDigest);
            all.addAll(lab[p].events());
        }
        return all;
    }

    private static GatewayConfig config(StageMode mode, double minStdev, int processes) {
        return new GatewayConfig(mode, 60 * S, S, 5, 2.0, PeerSet.ALL, minStdev, 3, 30 * S, processes);
    }

    private static List<String> names(int n) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            names.add("e" + i);
        }
        return names;
    }

    private static GatewayScenario scenario(
            List<String> endpoints, long rps, int failing, double percent, long start, long end, GatewayConfig config) {
        FaultSpec fault = FaultSpec.builder()
                .hosts(endpoints.subList(0, failing))
                .window(start * S, end * S)
                .errorRatePpm(Math.round(percent * 10_000))
                .build();
        return new GatewayScenario(
                "section-7",
                40 * S,
                1,
                endpoints,
                new TrafficSpec(rps),
                List.of(fault),
                config,
                RoutingConfig.defaults());
    }

    /**
     * The section's statements with the traffic of {@code SeedStatementsTest} in sim, cut to 40 s (faults from
     * 30 s) to keep the build short; the first decisions are the spec tests' own figures.
     */
    @Test
    void theSpecsSectionSevenScenariosDecideAlikeInTheLabAndLive() {
        GatewayConfig prod = config(StageMode.PROD, 1.0, 1);
        assertThat(assertSame("two, one failing a third", scenario(List.of("azure", "openai"), 10, 1, 33, 0, 40, prod)))
                .isEmpty();
        List<GatewayEvent> dead =
                assertSame("two, one dead", scenario(List.of("azure", "openai"), 10, 1, 100, 0, 40, prod));
        // out at 0.4 s, then again on its third failure after it returns at 30.4 s
        assertThat(dead).filteredOn(e -> e.action() == GatewayAction.EJECT).hasSize(2);
        assertThat(dead.get(0).timeNanos()).isEqualTo(400_000_000L);
        assertThat(assertSame("one endpoint", scenario(List.of("only"), 10, 1, 100, 0, 40, prod)))
                .filteredOn(e -> e.action() == GatewayAction.EJECT)
                .hasSize(2);
        assertThat(assertSame("uniformly bad", scenario(names(10), 300, 10, 50, 30, 40, prod)))
                .isEmpty();
        for (int n : new int[] {4, 6}) {
            List<GatewayEvent> oneBad = assertSame(n + " with one bad", scenario(names(n), 600, 1, 33, 30, 40, prod));
            assertThat(oneBad)
                    .as("%d endpoints", n)
                    .filteredOn(e -> e.action() == GatewayAction.EJECT)
                    .hasSize(n <= 4 ? 0 : 1);
        }
        assertThat(assertSame("six all a third, floor", scenario(names(6), 600, 6, 33, 30, 40, prod)))
                .isEmpty();
        assertThat(assertSame(
                        "six all a third, no floor",
                        scenario(names(6), 600, 6, 33, 30, 40, config(StageMode.PROD, 0, 1))))
                .isNotEmpty();
        List<GatewayEvent> shadow =
                assertSame("shadow", scenario(names(6), 600, 1, 33, 30, 40, config(StageMode.SHADOW, 1.0, 1)));
        assertThat(shadow.get(0).action()).isEqualTo(GatewayAction.WOULD_EJECT);
        assertThat(shadow.get(0).timeNanos()).isEqualTo(32_660_000_000L);
        List<GatewayEvent> two =
                assertSame("two processes", scenario(names(6), 600, 1, 33, 30, 40, config(StageMode.PROD, 1.0, 2)));
        assertThat(two.stream()
                        .filter(e -> e.process() == 1)
                        .findFirst()
                        .orElseThrow()
                        .timeNanos())
                .isEqualTo(32_561_666_666L);
    }

    @Test
    void fiftySeededRandomGatewayScenariosDecideAlikeInTheLabAndLive() {
        int withDecisions = 0;
        int withStatistical = 0;
        boolean[] kinds = new boolean[4];
        for (long seed = 1; seed <= 50; seed++) {
            GatewayScenario scenario = randomScenario(seed);
            List<Step> steps = new ArrayList<>();
            List<GatewayEvent> events = assertSame("seed " + seed + " " + scenario, scenario, steps);
            withDecisions += events.isEmpty() ? 0 : 1;
            withStatistical += events.stream()
                            .anyMatch(e -> e.reason() != null
                                    && e.reason().outputName().equals("success_rate"))
                    ? 1
                    : 0;
            for (Step s : steps) {
                if (s.routed() == null) {
                    switch (s.outcome()) {
                        case Outcome.TIMEOUT -> kinds[0] = true;
                        case Outcome.CONNECT_FAILED -> kinds[1] = true;
                        case Outcome.RESET -> kinds[2] = true;
                        default -> kinds[3] |= s.outcome() >= 500;
                    }
                }
            }
        }
        // The random scenarios are not vacuous: most decide something, some by the statistical rule, and every
        // kind of outcome the live pool accepts was recorded.
        assertThat(withDecisions).isGreaterThan(25);
        assertThat(withStatistical).isGreaterThan(5);
        assertThat(kinds).as(Arrays.toString(kinds)).containsOnly(true);
    }

    /** 1 to 8 endpoints, 1 to 3 processes, any mode, routing and fault pattern; 20 to 40 s at 50 to 150 rps. */
    private static GatewayScenario randomScenario(long seed) {
        Random r = new Random(seed);
        int n = 1 + r.nextInt(8);
        List<String> endpoints = names(n);
        StageMode mode = r.nextInt(6) == 0 ? StageMode.OFF : r.nextInt(3) == 0 ? StageMode.SHADOW : StageMode.PROD;
        long bucket = (1 + r.nextInt(2)) * S;
        long window = bucket * (5 + r.nextInt(30));
        GatewayConfig config = new GatewayConfig(
                mode,
                window,
                bucket,
                1 + r.nextInt(10),
                1.0 + r.nextInt(3) * 0.5,
                r.nextBoolean() ? PeerSet.ALL : PeerSet.OTHERS,
                r.nextInt(3) * 0.5,
                2 + r.nextInt(4),
                (2 + r.nextInt(20)) * S,
                1 + r.nextInt(3));
        RoutingStrategy strategy = RoutingStrategy.values()[r.nextInt(3)];
        List<Integer> weights = new ArrayList<>();
        if (strategy == RoutingStrategy.WEIGHTED) {
            for (int i = 0; i < n; i++) {
                weights.add(1 + r.nextInt(5));
            }
        }
        RoutingConfig routing = new RoutingConfig(strategy, weights, r.nextInt(3));
        long duration = (20 + r.nextInt(21)) * S;
        List<FaultSpec> faults = new ArrayList<>();
        for (int f = 0, count = 1 + r.nextInt(2); f < count; f++) {
            List<String> hosts = new ArrayList<>(endpoints);
            Collections.shuffle(hosts, r);
            hosts = hosts.subList(0, 1 + r.nextInt(Math.max(1, n / 2)));
            long start = r.nextInt((int) (duration / S / 2)) * S;
            long end = start + (5 + r.nextInt((int) (duration / S))) * S;
            FaultResult result = r.nextInt(3) == 0 ? FaultResult.values()[r.nextInt(3)] : null;
            FaultPattern pattern = FaultPattern.values()[r.nextInt(3)];
            // 5 % to 95 %; bursts of 20 failures on average, so that successes separate them at every rate
            faults.add(FaultSpec.builder()
                    .hosts(hosts)
                    .window(start, Math.min(end, duration))
                    .errorRatePpm(50_000L * (1 + r.nextInt(19)))
                    .status(new int[] {500, 502, 503, 504}[r.nextInt(4)])
                    .result(result)
                    .pattern(pattern)
                    .burstLengthMilli(20_000)
                    .build());
        }
        return new GatewayScenario(
                "random-" + seed,
                duration,
                seed,
                endpoints,
                new TrafficSpec(50 + r.nextInt(101)),
                faults,
                config,
                routing);
    }
}
