package dev.outlierlab.cli;

import static dev.outlierlab.cli.EnvoyTraces.C5XX;
import static dev.outlierlab.cli.EnvoyTraces.MS;
import static dev.outlierlab.cli.EnvoyTraces.S;
import static dev.outlierlab.cli.EnvoyTraces.assertEvents;
import static dev.outlierlab.cli.EnvoyTraces.assertStats;
import static dev.outlierlab.cli.EnvoyTraces.eject;
import static dev.outlierlab.cli.EnvoyTraces.only;
import static dev.outlierlab.cli.EnvoyTraces.run;
import static dev.outlierlab.cli.EnvoyTraces.stats;
import static dev.outlierlab.cli.EnvoyTraces.uneject;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.outlierlab.cli.EnvoyTraces.Ev;
import dev.outlierlab.engine.SeededRandom;
import dev.outlierlab.engine.envoy.EjectionPolicy;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Envoy's tests of how long an ejected host stays out, restated as outcome traces: the multiplier's backoff and
 * its decay over healthy intervals, {@code max_ejection_time} (aligned to the interval and not), and the
 * ejection-time jitter, including Envoy's own assertion on its mocked random draw.
 *
 * <p>How a trace is run and its result read: {@link EnvoyTraces}.
 */
class EnvoyTraceEjectionTimeTest {
    @Test
    @DisplayName("EjectTimeBackoff: out for 10, 20, 30 s; two healthy intervals -> 20 s; fifty -> 10 s again")
    void ejectTimeBackoff() {
        JsonNode r = run("eject-time-backoff");
        assertEvents(
                r,
                eject(0, "h0", C5XX, 10 * S, 1),
                uneject(10 * S, "h0"),
                eject(10 * S, "h0", C5XX, 20 * S, 2),
                uneject(30 * S, "h0"),
                eject(30 * S, "h0", C5XX, 30 * S, 3),
                uneject(60 * S, "h0"),
                eject(80 * S, "h0", C5XX, 20 * S, 2),
                uneject(100 * S, "h0"),
                eject(610 * S, "h0", C5XX, 10 * S, 1),
                uneject(620 * S, "h0"));
        assertStats(
                r,
                stats(
                        "ejections_enforced_total", 5,
                        "ejections_detected_consecutive_5xx", 5,
                        "ejections_enforced_consecutive_5xx", 5,
                        "ejections_total", 5,
                        "ejections_consecutive_5xx", 5));
    }

    @Test
    @DisplayName("MaxEjectTime: the i-th ejection lasts i x 10 s up to max_ejection_time 300 s, and stays there")
    void maxEjectTime() {
        JsonNode r = run("max-eject-time");
        // Envoy's loops: eject, stay ejected through i - 1 ticks, return at the i-th; then 9 x (29 ticks, return).
        List<Ev> expected = new ArrayList<>();
        long tick = 0;
        for (int i = 1; i <= 30; i++) {
            expected.add(eject(tick * 10 * S, "h0", C5XX, i * 10 * S, i));
            tick += i;
            expected.add(uneject(tick * 10 * S, "h0"));
        }
        for (int i = 1; i < 10; i++) {
            expected.add(eject(tick * 10 * S, "h0", C5XX, 300 * S, 31));
            tick += 30;
            expected.add(uneject(tick * 10 * S, "h0"));
        }
        assertThat(tick * 10 * S).isEqualTo(7350 * S);
        assertEvents(r, expected);
        assertStats(
                r,
                stats(
                        "ejections_enforced_total", 39,
                        "ejections_detected_consecutive_5xx", 39,
                        "ejections_enforced_consecutive_5xx", 39,
                        "ejections_total", 39,
                        "ejections_consecutive_5xx", 39));
    }

    @Test
    @DisplayName(
            "MaxEjectTimeNotAlligned: max 305 s is reached at the 31st ejection; each later one lasts until the tick 310 s on")
    void maxEjectTimeNotAligned() {
        JsonNode r = run("max-eject-time-not-aligned");
        List<Ev> expected = new ArrayList<>();
        long tick = 0;
        for (int i = 1; i <= 31; i++) {
            expected.add(eject(tick * 10 * S, "h0", C5XX, Math.min(i * 10 * S, 305 * S), i));
            tick += i;
            expected.add(uneject(tick * 10 * S, "h0"));
        }
        for (int i = 1; i < 10; i++) {
            // The multiplier stops at 32: 32 x 10 s is not below max + base (315 s).
            expected.add(eject(tick * 10 * S, "h0", C5XX, 305 * S, 32));
            tick += 31;
            expected.add(uneject(tick * 10 * S, "h0"));
        }
        assertThat(tick * 10 * S).isEqualTo(7750 * S);
        assertEvents(r, expected);
        assertStats(
                r,
                stats(
                        "ejections_enforced_total", 40,
                        "ejections_detected_consecutive_5xx", 40,
                        "ejections_enforced_consecutive_5xx", 40,
                        "ejections_total", 40,
                        "ejections_consecutive_5xx", 40));
    }

    @Test
    @DisplayName(
            "EjectionTimeJitterIsInRange: the jitter is the draw mod 10001 ms, and the host stays out base + jitter")
    void ejectionJitter() {
        // Envoy's assertion, on Envoy's mocked draw: 123456789 % (10000 + 1) = 4445 ms.
        OutlierDetectionConfig config = OutlierDetectionConfig.builder()
                .set(OutlierSetting.MAX_EJECTION_TIME_JITTER, 10 * S)
                .build();
        assertThat(new EjectionPolicy(config, () -> 123456789L).ejectionTime(0).jitterNanos())
                .isEqualTo(4445 * MS);

        // The trace: enforcing_consecutive_5xx is 100, so there is no enforcing draw and the jitter takes the
        // first draw of the seed (7).
        long jitter = Long.remainderUnsigned(new SeededRandom(7).next(), 10_001) * MS;
        assertThat(jitter).isBetween(1L, 10 * S);
        JsonNode r = run("ejection-jitter");
        assertEvents(r, eject(0, "h0", C5XX, 30 * S + jitter, 1), uneject(40 * S, "h0"));
        assertThat(only(r, "eject").get("jitter_ns").asLong()).isEqualTo(jitter);
        assertStats(
                r,
                stats(
                        "ejections_enforced_total", 1,
                        "ejections_detected_consecutive_5xx", 1,
                        "ejections_enforced_consecutive_5xx", 1,
                        "ejections_total", 1,
                        "ejections_consecutive_5xx", 1));
    }

    @Test
    @DisplayName("EjectionTimeJitterIsZeroWhenNotConfigured: jitter 0, back at the tick 30 s on")
    void ejectionJitterNotConfigured() {
        JsonNode r = run("ejection-jitter", "scenario-no-jitter.yaml");
        assertEvents(r, eject(0, "h0", C5XX, 30 * S, 1), uneject(30 * S, "h0"));
        assertThat(only(r, "eject").get("jitter_ns").asLong()).isZero();
    }
}
