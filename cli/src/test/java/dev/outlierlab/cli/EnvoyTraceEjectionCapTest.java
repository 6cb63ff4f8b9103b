package dev.outlierlab.cli;

import static dev.outlierlab.cli.EnvoyTraces.C5XX;
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
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Envoy's tests of the ejection cap, restated as outcome traces: a second host's ejection that would pass
 * {@code max_ejection_percent} is refused as an overflow, with the cap's figures on the event, and
 * {@code always_eject_one_host} lets the first ejection pass a cap it would otherwise fail.
 *
 * <p>How a trace is run and its result read: {@link EnvoyTraces}.
 */
class EnvoyTraceEjectionCapTest {
    @Test
    @DisplayName("Overflow: the second host's ejection would pass max_ejection_percent -> ejections_overflow")
    void overflow() {
        JsonNode r = run("overflow");
        assertEvents(r, eject(0, "h0", C5XX, 30 * S, 1), EnvoyTraces.overflow(0, "h1", C5XX));
        JsonNode refused = only(r, "overflow").get("cap");
        assertThat(refused.get("ejected_before").asInt()).isEqualTo(1);
        assertThat(refused.get("percent_if_ejected").asDouble()).isEqualTo(100.0);
        assertThat(refused.get("allowed").asBoolean()).isFalse();
        assertStats(
                r,
                stats(
                        "ejections_active", 1,
                        "ejections_overflow", 1,
                        "ejections_enforced_total", 1,
                        "ejections_detected_consecutive_5xx", 2,
                        "ejections_enforced_consecutive_5xx", 1,
                        "ejections_total", 1,
                        "ejections_consecutive_5xx", 2));
    }

    @Test
    @DisplayName("always_eject_one_host: the first ejection passes a 10 % cap on two hosts, the second does not")
    void alwaysEjectOneHost() {
        JsonNode r = run("always-eject-one-host");
        assertEvents(
                r,
                eject(0, "h0", C5XX, 30 * S, 1),
                EnvoyTraces.overflow(0, "h1", C5XX),
                uneject(30 * S, "h0"),
                eject(30 * S, "h1", C5XX, 30 * S, 1));
        JsonNode first = r.get("events").get(0).get("cap");
        assertThat(first.get("percent_if_ejected").asDouble()).isEqualTo(50.0);
        assertThat(first.get("max_ejection_percent").asInt()).isEqualTo(10);
        assertThat(first.get("allowed").asBoolean()).isTrue();
        assertStats(
                r,
                stats(
                        "ejections_active", 1,
                        "ejections_overflow", 1,
                        "ejections_enforced_total", 2,
                        "ejections_detected_consecutive_5xx", 3,
                        "ejections_enforced_consecutive_5xx", 2,
                        "ejections_total", 2,
                        "ejections_consecutive_5xx", 3));
    }

    @Test
    @DisplayName("always_eject_one_host off: the 10 % cap refuses every ejection on two hosts")
    void alwaysEjectOneHostOff() {
        JsonNode r = run("always-eject-one-host", "scenario-off.yaml");
        assertEvents(
                r,
                EnvoyTraces.overflow(0, "h0", C5XX),
                EnvoyTraces.overflow(0, "h1", C5XX),
                EnvoyTraces.overflow(30 * S, "h1", C5XX));
        assertStats(
                r,
                stats(
                        "ejections_overflow", 3,
                        "ejections_detected_consecutive_5xx", 3,
                        "ejections_consecutive_5xx", 3));
    }
}
