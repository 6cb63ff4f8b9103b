package dev.outlierlab.engine.envoy;

import static dev.outlierlab.engine.envoy.Fixtures.S;
import static dev.outlierlab.engine.envoy.Fixtures.config;
import static dev.outlierlab.engine.envoy.Fixtures.respond;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.SeededRandom;
import dev.outlierlab.engine.envoy.Fixtures.Events;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.engine.envoy.event.UnejectReason;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Where Envoy releases differ: the cap on the first ejection (1.28) and failing health checks (1.31). */
class EnvoyVersionTest {

    /** Each of {@code failing} hosts of {@code hosts} sends five 5xx in turn; returns the hosts ejected. */
    private static List<String> ejected(EnvoyVersion v, int hosts, int failing, long cap) {
        Events events = new Events();
        OutlierDetector d =
                new OutlierDetector(config(OutlierSetting.MAX_EJECTION_PERCENT, cap), new SeededRandom(1), events, v);
        List<HostMonitor> h = new ArrayList<>();
        for (int i = 0; i < hosts; i++) {
            h.add(d.addHost("h" + i));
        }
        for (int i = 0; i < failing; i++) {
            respond(h.get(i), 5, 500, S);
        }
        return events.all.stream()
                .filter(e -> e.action() == EventAction.EJECT)
                .map(OutlierEvent::host)
                .toList();
    }

    @Test
    void beforeOnePointTwentyEightTheFirstEjectionIgnoresTheCap() {
        // six hosts, default cap 10 %: one of six is 16.7 %
        assertThat(ejected(EnvoyVersion.parse("1.40"), 6, 2, 10)).isEmpty();
        assertThat(ejected(EnvoyVersion.parse("1.28"), 6, 2, 10)).isEmpty();
        assertThat(ejected(EnvoyVersion.parse("1.27"), 6, 2, 10)).containsExactly("h0");
        assertThat(ejected(EnvoyVersion.parse("1.26"), 6, 2, 10)).containsExactly("h0");
    }

    @Test
    void onePointTwentySixComparesTheHostsAlreadyOutStrictly() {
        // three hosts, cap 50: 1.26 checks 100 * active / hosts < 50 before each ejection (0 %, then 33.3 %): two go;
        // 1.27 on checks (active + 1): 33.3 % <= 50, then 66.7 % > 50: one goes (envoyproxy/envoy issue 26877)
        assertThat(ejected(EnvoyVersion.parse("1.26"), 3, 3, 50)).containsExactly("h0", "h1");
        assertThat(ejected(EnvoyVersion.parse("1.27"), 3, 3, 50)).containsExactly("h0");
        assertThat(ejected(EnvoyVersion.parse("1.40"), 3, 3, 50)).containsExactly("h0");
        // 1.26 with a cap of 0 ejects nothing: 0 < 0 is false; 1.27 ejects the first anyway
        assertThat(ejected(EnvoyVersion.parse("1.26"), 3, 1, 0)).isEmpty();
        assertThat(ejected(EnvoyVersion.parse("1.27"), 3, 1, 0)).containsExactly("h0");
    }

    @Test
    void beforeOnePointThirtyOneAFailingHealthCheckReturnsAnEjectedHost() {
        for (String release : List.of("1.30", "1.31")) {
            Events events = new Events();
            OutlierDetector d = new OutlierDetector(
                    config(OutlierSetting.MAX_EJECTION_PERCENT, 100),
                    new SeededRandom(1),
                    events,
                    EnvoyVersion.parse(release));
            HostMonitor h = d.addHost("h0");
            d.addHost("h1");
            respond(h, 5, 500, S);
            assertThat(h.isEjected()).isTrue();
            boolean returned = d.onActiveHealthCheck(h, false, 5 * S);
            assertThat(returned).as(release).isEqualTo(release.equals("1.30"));
            if (returned) {
                assertThat(events.last().uneject()).isEqualTo(UnejectReason.FAILING_ACTIVE_HEALTH_CHECK);
            }
            assertThat(d.onActiveHealthCheck(h, true, 6 * S)).as(release).isEqualTo(release.equals("1.31"));
        }
    }

    @Test
    void releasesAreReadWithOrWithoutPatchAndOutOfRangeOnesRefused() {
        assertThat(EnvoyVersion.parse("v1.36.2")).isEqualTo(new EnvoyVersion(1, 36));
        assertThat(EnvoyVersion.DEFAULT).hasToString("1.40");
        assertThatThrownBy(() -> EnvoyVersion.parse("1.25"))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessage("envoy_version: \"1.25\" is not allowed; expected an Envoy release from 1.26 to 1.40, "
                        + "such as 1.40 or 1.36.2");
        assertThatThrownBy(() -> EnvoyVersion.parse("2.0")).isInstanceOf(InvalidConfigException.class);
        assertThatThrownBy(() -> EnvoyVersion.parse("latest")).isInstanceOf(InvalidConfigException.class);
    }
}
