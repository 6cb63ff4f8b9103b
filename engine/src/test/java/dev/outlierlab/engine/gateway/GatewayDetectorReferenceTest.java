package dev.outlierlab.engine.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.stage.StageMode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The gateway detector against a plain reading of the rules in docs/gateway.md, on 400 seeded random
 * configurations and outcome streams: every attempt kept with its time, the window counted afresh at each
 * judgement, the peers' mean and population standard deviation summed in routing order, no shortcut. The
 * detector skips work (judgements that cannot fire, windows already current) and must decide exactly the same:
 * the same events with the same numbers, bit for bit, and the same count of judgements held back by
 * {@code min_stdev}. Streams include endpoints that fail evenly (exact ties between rates), never or always,
 * bursts of hard-trip failures, gaps longer than the window, and several outcomes at one instant.
 */
class GatewayDetectorReferenceTest {

    /** Section 2 to 4 as written: a list of (time, failed) per endpoint since it last returned. */
    private static final class Reference {
        final GatewayConfig config;
        final int n;
        final List<ArrayDeque<long[]>> attempts = new ArrayList<>();
        final long[] failures;
        final long[] consecutive;
        final boolean[] ejected;
        final long[] ejectedAt;
        final long[] returnAt;
        final List<GatewayEvent> events = new ArrayList<>();
        long belowMinStdev;

        Reference(GatewayConfig config, int n) {
            this.config = config;
            this.n = n;
            for (int i = 0; i < n; i++) {
                attempts.add(new ArrayDeque<>());
            }
            failures = new long[n];
            consecutive = new long[n];
            ejected = new boolean[n];
            ejectedAt = new long[n];
            returnAt = new long[n];
        }

        /** Attempts and failures of the endpoint's window at t: its bucket and the buckets - 1 before it. */
        long[] window(int e, long t) {
            long oldest = t / config.bucketNanos() - config.buckets() + 1;
            ArrayDeque<long[]> list = attempts.get(e);
            while (!list.isEmpty() && list.peekFirst()[0] / config.bucketNanos() < oldest) {
                failures[e] -=
                        list.pollFirst()[1]; // time only moves forward: older than the window now is older forever
            }
            return new long[] {list.size(), failures[e]};
        }

        void look(long t) {
            for (int i = 0; i < n; i++) {
                if (ejected[i] && returnAt[i] <= t) {
                    ejected[i] = false;
                    attempts.get(i).clear();
                    failures[i] = 0;
                    consecutive[i] = 0;
                    events.add(new GatewayEvent(
                            t, 0, i, "e" + i, GatewayAction.RETURN, null, null, returnAt[i], t - ejectedAt[i]));
                }
            }
        }

        void record(int e, boolean failed, long t) {
            look(t);
            attempts.get(e).addLast(new long[] {t, failed ? 1 : 0});
            failures[e] += failed ? 1 : 0;
            consecutive[e] = failed ? consecutive[e] + 1 : 0;
            if (ejected[e]) {
                return;
            }
            if (config.consecutiveFailures() > 0 && consecutive[e] >= config.consecutiveFailures()) {
                long count = consecutive[e];
                consecutive[e] = 0;
                eject(e, t, EjectionReason.CONSECUTIVE, new ConsecutiveTrip(count, config.consecutiveFailures()));
                return;
            }
            long[] own = window(e, t);
            if (own[0] < config.minRequests()) {
                return;
            }
            List<Double> peerRates = new ArrayList<>();
            int scored = 0;
            for (int i = 0; i < n; i++) {
                long[] w = window(i, t);
                if (ejected[i] || w[0] < config.minRequests()) {
                    continue;
                }
                scored++;
                if (config.peerSet() == PeerSet.OTHERS && i == e) {
                    continue;
                }
                peerRates.add((w[0] - w[1]) * 100.0 / w[0]);
            }
            int peers = peerRates.size();
            if (peers < (config.peerSet() == PeerSet.ALL ? 2 : 1)) {
                return;
            }
            double sum = 0;
            for (double r : peerRates) {
                sum += r;
            }
            double mean = sum / peers;
            double squares = 0;
            for (double r : peerRates) {
                squares += (r - mean) * (r - mean);
            }
            double stdev = Math.sqrt(squares / peers);
            double threshold = mean - config.stdevFactor() * stdev;
            double rate = (own[0] - own[1]) * 100.0 / own[0];
            if (stdev < config.minStdevPercent()) {
                if (rate < threshold) {
                    belowMinStdev++;
                }
            } else if (rate < threshold) {
                eject(
                        e,
                        t,
                        EjectionReason.SUCCESS_RATE,
                        new SuccessRateJudgement(rate, own[0], own[1], mean, stdev, threshold, scored, peers));
            }
        }

        void eject(int e, long t, EjectionReason reason, GatewayEvidence evidence) {
            ejected[e] = true;
            ejectedAt[e] = t;
            returnAt[e] = t + config.ejectionTimeNanos();
            GatewayAction action = config.mode() == StageMode.SHADOW ? GatewayAction.WOULD_EJECT : GatewayAction.EJECT;
            events.add(new GatewayEvent(t, 0, e, "e" + e, action, reason, evidence, returnAt[e], 0));
        }
    }

    private static GatewayConfig randomConfig(Random r) {
        long bucket = (1 + r.nextInt(20)) * 100 * Durations.MILLISECOND;
        int buckets = 1 + r.nextInt(30);
        return new GatewayConfig(
                r.nextInt(3) == 0 ? StageMode.SHADOW : StageMode.PROD,
                bucket * buckets,
                bucket,
                1 + r.nextInt(8),
                new double[] {0, 0.5, 1.0, 1.5, 2.0, 2.0, 3.0}[r.nextInt(7)],
                r.nextBoolean() ? PeerSet.ALL : PeerSet.OTHERS,
                new double[] {0, 0, 0.5, 1, 1, 5}[r.nextInt(6)],
                r.nextInt(6),
                (1 + r.nextInt(200)) * 100 * Durations.MILLISECOND,
                1);
    }

    @Test
    void decidesExactlyAsThePlainReadingOfTheSpec() {
        long successRateEjections = 0;
        long consecutiveEjections = 0;
        long heldBack = 0;
        for (long seed = 1; seed <= 400; seed++) {
            Random r = new Random(seed * 0x9E3779B97F4A7C15L);
            GatewayConfig config = randomConfig(r);
            int n = 1 + r.nextInt(9);
            List<String> names = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                names.add("e" + i);
            }
            // per endpoint: fail every k-th attempt (0: never), or at random with a probability
            int[] every = new int[n];
            double[] p = new double[n];
            for (int i = 0; i < n; i++) {
                switch (r.nextInt(5)) {
                    case 0 -> every[i] = 0;
                    case 1 -> every[i] = 3;
                    case 2 -> every[i] = 1 + r.nextInt(10);
                    default -> p[i] = new double[] {0.01, 0.1, 0.33, 0.5, 1.0}[r.nextInt(5)];
                }
            }
            List<GatewayEvent> events = new ArrayList<>();
            GatewayDetector detector = new GatewayDetector(config, names, 0, events::add);
            Reference reference = new Reference(config, n);
            long t = 0;
            long[] sent = new long[n];
            int steps = 300 + r.nextInt(1500);
            for (int s = 0; s < steps; s++) {
                int gap = r.nextInt(100);
                t += gap < 3 ? 0 : gap < 97 ? r.nextInt(50) * Durations.MILLISECOND : r.nextInt(60) * Durations.SECOND;
                if (r.nextInt(20) == 0) {
                    detector.runDue(t);
                    reference.look(t);
                }
                int e = s % n;
                if (r.nextInt(4) == 0) {
                    e = r.nextInt(n);
                }
                boolean failed = every[e] > 0 ? sent[e] % every[e] == every[e] - 1 : r.nextDouble() < p[e];
                sent[e]++;
                detector.record(e, failed ? (r.nextBoolean() ? 503 : -1) : (r.nextInt(10) == 0 ? 429 : 200), t);
                reference.record(e, failed, t);
                if (!events.equals(reference.events)) {
                    assertThat(events).as("seed %d step %d", seed, s).isEqualTo(reference.events);
                }
                for (int i = 0; i < n; i++) {
                    if (detector.isEjected(i) != reference.ejected[i]) {
                        throw new AssertionError("seed " + seed + " step " + s + ": endpoint " + i + " ejected "
                                + detector.isEjected(i) + ", the spec says " + reference.ejected[i]);
                    }
                }
            }
            assertThat(detector.judgementsBelowMinStdev()).as("seed %d", seed).isEqualTo(reference.belowMinStdev);
            heldBack += reference.belowMinStdev;
            for (GatewayEvent event : events) {
                if (event.reason() == EjectionReason.SUCCESS_RATE) {
                    successRateEjections++;
                } else if (event.reason() == EjectionReason.CONSECUTIVE) {
                    consecutiveEjections++;
                }
            }
        }
        // the streams reach every kind of decision, often
        assertThat(successRateEjections).isGreaterThan(300);
        assertThat(consecutiveEjections).isGreaterThan(300);
        assertThat(heldBack).isGreaterThan(300);
    }
}
