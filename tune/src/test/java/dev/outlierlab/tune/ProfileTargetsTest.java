package dev.outlierlab.tune;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outlierlab.check.CheckInputs;
import dev.outlierlab.check.CheckTarget;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.grpc.ServiceConfigReader;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.engine.grpc.GrpcImplementation;
import dev.outlierlab.engine.grpc.GrpcOutlierConfig;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The two targets that are not Envoy's outlier detection: every gRPC candidate is written as a service config that
 * grpc-java's reader reads back to the same settings, every gateway candidate as a gateway configuration that
 * {@code check}'s reader reads back to the same gateway settings, each without a {@code check} error; each searches
 * only what it can express, and gRPC's one channel refuses several callers.
 */
class ProfileTargetsTest {
    static TuneRequest request(Target target, int hosts, long rps, List<SuiteScenario> suite) {
        CurrentSettings c = CurrentSettings.defaults("search", target, hosts);
        return TuneRequest.builder()
                .name("search")
                .hosts(hosts)
                .rps(rps)
                .clients(1)
                .target(target)
                .envoyVersion(EnvoyVersion.DEFAULT)
                .current(c.config())
                .currentPanicPercent(c.panicThresholdPercent())
                .suite(suite)
                .screenSeeds(2)
                .seeds(2)
                .maxEjected(TuneRequest.defaultMaxEjected(hosts))
                .baseErrorPpm(0)
                .threads(2)
                .currentProfile(c.profile())
                .build();
    }

    @Test
    void everyGrpcCandidateReadsBackAsItselfAndChecksWithoutErrors() {
        TuneRequest req = request(GrpcTarget.INSTANCE, 6, 600, new DefaultSuite(6, 600, 1, 0).scenarios());
        List<Setting> candidates = SearchSpace.candidates(req);
        assertThat(candidates).hasSizeGreaterThan(5);
        for (Setting s : candidates) {
            Target.Written w = req.target().write(s, "search", 6, req.current(), 0, req.currentProfile());
            GrpcOutlierConfig read = ServiceConfigReader.read(w.text(), "written", GrpcImplementation.JAVA)
                    .config();
            assertThat(read).as(w.text()).isEqualTo(((GrpcRun) w.profile()).config());
            assertThat(Setting.of(ProfileFiles.asEnvoyFields(read)))
                    .as(w.text())
                    .isEqualTo(s);
            assertThat(Explanation.findings(req, w)).as(s.label()).noneMatch(f -> f.startsWith("error "));
        }
    }

    @Test
    void grpcSearchesSuccessRateFailurePercentageAndCapsUnderItsOwnRule() {
        TuneRequest req = request(GrpcTarget.INSTANCE, 6, 600, new DefaultSuite(6, 600, 1, 0).scenarios());
        List<Setting> candidates = SearchSpace.candidates(req);
        // no consecutive detectors and no always_eject_one_host in gRPC
        assertThat(candidates).allMatch(s -> s.consecutive5xx() == 0 && !s.alwaysEjectOneHost());
        assertThat(candidates)
                .anyMatch(s -> s.successRateStdevFactor() > 0)
                .anyMatch(s -> s.failurePercentageThreshold() > 0);
        // grpc-java ejects while ejected / hosts * 100 < max: the current 10 % admits one of six, 17 % two
        assertThat(candidates).extracting(Setting::maxEjectionPercent).containsOnly(10L, 17L);
        assertThat(GrpcTarget.INSTANCE.admits(null, 0, 6, 10, false)).isTrue();
        assertThat(GrpcTarget.INSTANCE.admits(null, 1, 6, 10, false)).isFalse();
        assertThat(GrpcTarget.INSTANCE.admits(null, 1, 6, 17, false)).isTrue();
        assertThat(GrpcTarget.INSTANCE.admits(null, 2, 6, 17, false)).isFalse();
        assertThat(GrpcTarget.INSTANCE.admits(null, 0, 6, 0, false)).isFalse();
    }

    @Test
    void grpcRefusesSeveralCallersWithOneMessage() {
        assertThatThrownBy(() -> TuneRequest.builder()
                        .name("search")
                        .hosts(6)
                        .rps(600)
                        .clients(5)
                        .target(GrpcTarget.INSTANCE)
                        .envoyVersion(EnvoyVersion.DEFAULT)
                        .current(ProfileFiles.asEnvoyFields(GrpcOutlierConfig.defaults()))
                        .currentPanicPercent(0)
                        .suite(new DefaultSuite(6, 600, 5, 0).scenarios())
                        .screenSeeds(2)
                        .seeds(2)
                        .maxEjected(2)
                        .baseErrorPpm(0)
                        .threads(1)
                        .currentProfile(new GrpcRun(GrpcOutlierConfig.defaults()))
                        .build())
                .isInstanceOf(InputException.class)
                .hasMessageStartingWith(
                        "--clients: 5 is not allowed with --target grpc; the gRPC profile runs one channel");
    }

    @Test
    void everyGatewayCandidateReadsBackAsItselfAndChecksWithoutErrors() {
        TuneRequest req = request(GatewayTuneTarget.INSTANCE, 6, 600, new DefaultSuite(6, 600, 1, 0).scenarios());
        List<Setting> candidates = SearchSpace.candidates(req);
        assertThat(candidates).hasSizeGreaterThan(20).allMatch(s -> s.gateway() != null);
        assertThat(candidates)
                .extracting(s -> s.gateway().consecutiveFailures())
                .contains(0, 3, 5, 10, 20);
        // 100 rps a host fills a 60 s window with 6,000 requests: 100 before an endpoint is scored is offered
        assertThat(candidates).extracting(s -> s.gateway().minRequests()).containsOnly(5, 100);
        for (Setting s : candidates) {
            Target.Written w = req.target().write(s, "search", 6, req.current(), 0, req.currentProfile());
            List<CheckTarget> read =
                    CheckInputs.read(w.text(), "written", null, false).targets();
            assertThat(read).hasSize(1);
            GatewayConfig g = read.get(0).gateway().gateway();
            assertThat(g).as(w.text()).isEqualTo(s.gateway()).isEqualTo(((GatewayRun) w.profile()).gateway());
            assertThat(read.get(0).hosts()).isEqualTo(6);
            assertThat(Explanation.findings(req, w)).as(s.label()).noneMatch(f -> f.startsWith("error "));
        }
    }

    @Test
    void anEnvoyClusterBecomesGrpcSettingsAsTheXdsClientMapsItAndAGatewayFileOnlyItsOwnTarget() {
        CurrentSettings envoy = CurrentSettings.defaults("search");
        List<String> notes = new ArrayList<>();
        CurrentSettings grpc = envoy.asTarget(GrpcTarget.INSTANCE, notes);
        assertThat(grpc.target()).isEqualTo(GrpcTarget.INSTANCE);
        assertThat(((GrpcRun) grpc.profile()).config().successRate().stdevFactor())
                .isEqualTo(1900);
        // grpc-java reads an unset enforcing_failure_percentage as failure percentage on at 85 %
        // (fromEnvoyOutlierDetection)
        assertThat(((GrpcRun) grpc.profile()).config().failurePercentage().threshold())
                .isEqualTo(85);
        assertThat(notes)
                .anyMatch(n -> n.contains("as gRPC's xDS client maps it"))
                .anyMatch(n -> n.contains("consecutive"));
        CurrentSettings gateway = CurrentSettings.defaults("search", GatewayTuneTarget.INSTANCE, 6);
        assertThatThrownBy(() -> gateway.asTarget(EnvoyTarget.ENVOY, new ArrayList<>()))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("tune it with --target gateway");
        assertThatThrownBy(() -> envoy.asTarget(GatewayTuneTarget.INSTANCE, new ArrayList<>()))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("tune it with --target envoy");
    }
}
