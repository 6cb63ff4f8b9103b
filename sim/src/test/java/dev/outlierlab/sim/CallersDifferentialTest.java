package dev.outlierlab.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.sim.scenario.FaultPattern;
import dev.outlierlab.sim.scenario.FaultResult;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.scenario.TrafficSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Callers are independent detectors: a run with P callers gives, for each caller, exactly the decisions of that
 * caller run alone on its share (the requests it sent, with the outcomes the hosts gave them, the hosts' faults
 * being shared), and its statistics are the sums of those runs'. Seeded random scenarios (the invariant test's,
 * with 2 to 8 callers and every fault pattern); the lone run must also route every request to the host the
 * caller chose in the full run, so rotation and panic state are the caller's own.
 */
class CallersDifferentialTest {
    private static final int SCENARIOS = 220;

    /** One request of a caller's share as the full run sent it. */
    private record Sent(long nanos, int host, int code, FaultResult result) {}

    @Test
    void everyCallerDecidesAsARunOfItsOwnShare() {
        SplittableRandom rnd = new SplittableRandom(0xCA11E25L);
        int multiCaller = 0;
        long callerEvents = 0;
        for (int n = 0; n < SCENARIOS; n++) {
            Scenario s = withCallers(SimulationInvariantsTest.randomScenario(rnd), rnd);
            int clients = s.traffic().clients();
            List<List<Sent>> shares = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                shares.add(new ArrayList<>());
            }
            RunResult all = Simulation.run(s, RunOptions.DEFAULT, new RequestSink() {
                @Override
                public void onRequest(long nanos, int host, int code, FaultResult result) {
                    throw new AssertionError("the run names the caller of every request");
                }

                @Override
                public void onRequest(int client, long nanos, int host, int code, FaultResult result) {
                    shares.get(client).add(new Sent(nanos, host, code, result));
                }
            });
            try {
                Map<String, Long> summed = new LinkedHashMap<>();
                long ejectedNanos = 0;
                long alone = 0;
                for (int c = 0; c < clients; c++) {
                    RunResult one = runAlone(s, c, shares.get(c));
                    assertThat(eventsOf(all, c))
                            .as("caller %d of %d", c, clients)
                            .isEqualTo(one.events());
                    one.stats().forEach((k, v) -> summed.merge(k, v, Long::sum));
                    ejectedNanos += one.hosts().stream()
                            .mapToLong(HostTally::ejectedCallerNanos)
                            .sum();
                    alone += one.events().size();
                }
                assertThat(all.events()).hasSize((int) alone);
                assertThat(all.stats()).isEqualTo(summed);
                assertThat(all.hosts().stream()
                                .mapToLong(HostTally::ejectedCallerNanos)
                                .sum())
                        .isEqualTo(ejectedNanos);
                assertThat(all.summary().requests())
                        .isEqualTo(shares.stream().mapToLong(List::size).sum());
                if (clients > 1) {
                    multiCaller++;
                    callerEvents += all.events().stream()
                            .filter(e -> e.action().name().equals("EJECT"))
                            .count();
                }
            } catch (AssertionError e) {
                throw new AssertionError("scenario #" + n + ": " + s + "\n" + e.getMessage(), e);
            }
        }
        assertThat(multiCaller).isGreaterThanOrEqualTo(200);
        assertThat(callerEvents).as("ejections over the multi-caller runs").isGreaterThan(500);
    }

    /** The same scenario from 2 to 8 callers (fewer when the rate is lower), each fault with a drawn pattern. */
    private static Scenario withCallers(Scenario s, SplittableRandom rnd) {
        List<FaultSpec> faults = new ArrayList<>();
        for (FaultSpec f : s.faults()) {
            FaultPattern pattern = FaultPattern.values()[rnd.nextInt(FaultPattern.values().length)];
            long burst = Math.max(FaultSpec.shortestBurstLengthMilli(f.errorRatePpm()), 1000 + rnd.nextInt(8000));
            faults.add(f.toBuilder()
                    .pattern(pattern)
                    .burstLengthMilli(Math.min(burst, FaultSpec.MAX_BURST_LENGTH_MILLI))
                    .build());
        }
        long rps = Math.max(2, s.traffic().rps());
        int clients = 2 + rnd.nextInt((int) Math.min(7, rps - 1));
        return s.toBuilder()
                .seed(s.seed() + rnd.nextInt(1000))
                .traffic(new TrafficSpec(rps, clients))
                .faults(faults)
                .build();
    }

    private static List<OutlierEvent> eventsOf(RunResult r, int client) {
        List<OutlierEvent> mine = new ArrayList<>();
        for (int i = 0; i < r.events().size(); i++) {
            if (r.clientOf(i) == client) {
                mine.add(r.events().get(i));
            }
        }
        return mine;
    }

    /** Caller {@code c} alone on its share: it must pick the same hosts, which then give the same outcomes. */
    private static RunResult runAlone(Scenario s, int c, List<Sent> share) {
        LabCluster cluster = new LabCluster(s.withClients(1), RunOptions.DEFAULT, c);
        Caller caller = cluster.first();
        long nextDue = cluster.nextDueNanos();
        for (int j = 0; j < share.size(); j++) {
            Sent r = share.get(j);
            if (r.nanos() >= nextDue) {
                cluster.runDue(r.nanos());
                nextDue = cluster.nextDueNanos();
            }
            int host = caller.pick(j);
            assertThat(host)
                    .as("caller %d's request %d at %d ns", c, j, r.nanos())
                    .isEqualTo(r.host());
            if (host >= 0) {
                caller.report(host, r.code(), r.result(), r.nanos());
            }
        }
        return cluster.finish();
    }
}
