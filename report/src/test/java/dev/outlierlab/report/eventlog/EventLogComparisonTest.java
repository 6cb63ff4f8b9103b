package dev.outlierlab.report.eventlog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.envoy.EjectionType;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Matching Envoy's events with the lab's decisions: host, kind, detector, and one interval of time. */
class EventLogComparisonTest {
    private static final long S = 1_000_000_000L;
    private static final long ORIGIN = 1_767_225_600L * S; // 2026-01-01T00:00:00Z
    private static final long INTERVAL = 10 * S;

    private static EnvoyEvent envoy(long line, long atNanos, String host, EnvoyEvent.Kind kind, EjectionType type) {
        return new EnvoyEvent(
                line, ORIGIN + atNanos, "c", host, kind, type, type == null ? "CONSECUTIVE_5XX" : type.name(), 1);
    }

    private static OutlierEvent lab(long atNanos, String host, EventAction action, EjectionType type) {
        return new OutlierEvent(atNanos, host, action, type, null, null, null, null, null, 0, 1, false, null);
    }

    private static EventLogComparison.Result compare(List<EnvoyEvent> envoy, List<OutlierEvent> lab) {
        return EventLogComparison.compare("c", envoy, lab, ORIGIN, 300 * S, INTERVAL);
    }

    @Test
    void withinOneIntervalInclusiveIsAMatchOneNanosecondMoreIsNot() {
        EventLogComparison.Result r = compare(
                List.of(
                        envoy(1, 40 * S, "a", EnvoyEvent.Kind.EJECT, EjectionType.SUCCESS_RATE),
                        envoy(2, 100 * S, "b", EnvoyEvent.Kind.EJECT, EjectionType.SUCCESS_RATE)),
                List.of(
                        lab(50 * S, "a", EventAction.EJECT, EjectionType.SUCCESS_RATE),
                        lab(110 * S + 1, "b", EventAction.EJECT, EjectionType.SUCCESS_RATE)));
        EventLogComparison.Tally t = r.tallies().get(EnvoyEvent.Kind.EJECT);
        assertThat(t.matched()).hasSize(1);
        assertThat(t.matched().get(0).differenceNanos()).isEqualTo(10 * S);
        assertThat(t.maxDifferenceNanos()).isEqualTo(10 * S);
        assertThat(t.missed()).extracting(EnvoyEvent::host).containsExactly("b");
        assertThat(t.extra()).extracting(l -> l.event().timeNanos()).containsExactly(110 * S + 1);
        assertThat(r.allMatched()).isFalse();
    }

    @Test
    void hostKindAndDetectorMustAgreeButReturnsAndUnknownTypesMatchAnyType() {
        EventLogComparison.Result r = compare(
                List.of(
                        envoy(1, 5 * S, "a", EnvoyEvent.Kind.EJECT, EjectionType.CONSECUTIVE_5XX),
                        envoy(2, 5 * S, "b", EnvoyEvent.Kind.EJECT, null),
                        envoy(3, 40 * S, "a", EnvoyEvent.Kind.UNEJECT, null),
                        envoy(4, 60 * S, "c", EnvoyEvent.Kind.UNENFORCED, EjectionType.FAILURE_PERCENTAGE)),
                List.of(
                        lab(5 * S, "a", EventAction.EJECT, EjectionType.SUCCESS_RATE),
                        lab(5 * S, "b", EventAction.EJECT, EjectionType.CONSECUTIVE_GATEWAY_FAILURE),
                        lab(38 * S, "a", EventAction.UNEJECT, null),
                        lab(60 * S, "c", EventAction.EJECT, EjectionType.FAILURE_PERCENTAGE),
                        lab(70 * S, "c", EventAction.OVERFLOW, EjectionType.FAILURE_PERCENTAGE)));
        EventLogComparison.Tally ej = r.tallies().get(EnvoyEvent.Kind.EJECT);
        assertThat(ej.envoy()).isEqualTo(2);
        assertThat(ej.lab()).isEqualTo(3);
        assertThat(ej.matched()).extracting(m -> m.envoy().host()).containsExactly("b");
        assertThat(ej.missed()).extracting(EnvoyEvent::host).containsExactly("a");
        assertThat(ej.extra()).extracting(l -> l.event().host()).containsExactly("a", "c");
        EventLogComparison.Tally back = r.tallies().get(EnvoyEvent.Kind.UNEJECT);
        assertThat(back.matched()).hasSize(1);
        assertThat(back.matched().get(0).differenceNanos()).isEqualTo(-2 * S);
        // an unenforced detection is not an ejection; the overflow is not in Envoy's log at all
        EventLogComparison.Tally un = r.tallies().get(EnvoyEvent.Kind.UNENFORCED);
        assertThat(un.missed()).hasSize(1);
        assertThat(un.lab()).isZero();
    }

    @Test
    void aLongLogOfOneHostMatchesEveryTickAndLeavesTheStragglersOver() {
        // 20,000 returns on ticks 10 s apart, Envoy's 3 s after the lab's, plus one lab return 30 s after the last
        List<EnvoyEvent> envoy = new ArrayList<>();
        List<OutlierEvent> lab = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            envoy.add(envoy(i + 1, i * INTERVAL + 3 * S, "a", EnvoyEvent.Kind.UNEJECT, null));
            lab.add(lab(i * INTERVAL, "a", EventAction.UNEJECT, null));
        }
        lab.add(lab(20_002 * INTERVAL, "a", EventAction.UNEJECT, null));
        EventLogComparison.Result r = EventLogComparison.compare("c", envoy, lab, ORIGIN, 20_003 * INTERVAL, INTERVAL);
        EventLogComparison.Tally t = r.tallies().get(EnvoyEvent.Kind.UNEJECT);
        assertThat(t.matched()).hasSize(20_000).allMatch(m -> m.differenceNanos() == -3 * S);
        assertThat(t.extra()).extracting(l -> l.event().timeNanos()).containsExactly(20_002 * INTERVAL);
        assertThat(t.missed()).isEmpty();
    }

    @Test
    void eachDecisionMatchesOnceInTimeOrderAndEventsOutsideTheSpanAreNotJudged() {
        // Envoy's ticks 7 s after the lab's: three ejections of one host pair up in order, not all with the first
        EventLogComparison.Result r = compare(
                List.of(
                        envoy(3, 147 * S, "a", EnvoyEvent.Kind.EJECT, EjectionType.SUCCESS_RATE),
                        envoy(1, 47 * S, "a", EnvoyEvent.Kind.EJECT, EjectionType.SUCCESS_RATE),
                        envoy(2, 87 * S, "a", EnvoyEvent.Kind.EJECT, EjectionType.SUCCESS_RATE),
                        envoy(4, -11 * S, "a", EnvoyEvent.Kind.UNEJECT, null),
                        envoy(5, 311 * S, "a", EnvoyEvent.Kind.EJECT, EjectionType.SUCCESS_RATE),
                        envoy(6, 310 * S, "a", EnvoyEvent.Kind.UNEJECT, null)),
                List.of(
                        lab(40 * S, "a", EventAction.EJECT, EjectionType.SUCCESS_RATE),
                        lab(80 * S, "a", EventAction.EJECT, EjectionType.SUCCESS_RATE),
                        lab(140 * S, "a", EventAction.EJECT, EjectionType.SUCCESS_RATE)));
        EventLogComparison.Tally t = r.tallies().get(EnvoyEvent.Kind.EJECT);
        assertThat(t.matched())
                .extracting(m -> m.envoy().line() + "@" + m.lab().event().timeNanos() / S)
                .containsExactly("1@40", "2@80", "3@140");
        assertThat(t.matched()).allMatch(m -> m.differenceNanos() == -7 * S);
        assertThat(r.outside()).extracting(EnvoyEvent::line).containsExactly(4L, 5L);
        assertThat(r.tallies().get(EnvoyEvent.Kind.UNEJECT).missed())
                .extracting(EnvoyEvent::line)
                .containsExactly(6L);
        assertThat(r.allMatched()).isFalse();
    }
}
