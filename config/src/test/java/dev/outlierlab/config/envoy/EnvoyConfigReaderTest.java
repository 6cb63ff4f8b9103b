package dev.outlierlab.config.envoy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outlierlab.config.InputException;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.EjectionType;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import org.junit.jupiter.api.Test;

class EnvoyConfigReaderTest {

    @Test
    void staticClusterWithTlsAndProtocolOptions() {
        EnvoyConfig config = Corpus.envoy("envoy/static-cluster.yaml");
        assertThat(config.kind()).isEqualTo(EnvoyConfig.Kind.CLUSTER);
        EnvoyCluster c = config.cluster(null);
        assertThat(c.name()).isEqualTo("bookstore-search");
        assertThat(c.discoveryType()).isEqualTo("STATIC");
        assertThat(c.hosts())
                .containsExactly(
                        "10.0.1.10:8080",
                        "10.0.1.11:8080",
                        "10.0.1.12:8080",
                        "10.0.2.10:8080",
                        "10.0.2.11:8080",
                        "10.0.2.12:8080");
        assertThat(c.panicThresholdPercent()).isEqualTo(50.0);
        assertThat(c.healthChecks()).isNull();
        assertThat(c.outlierDetectionLine()).isEqualTo(35);
        OutlierDetectionConfig od = c.outlierDetection();
        assertThat(od.maxEjectionPercent()).isEqualTo(34);
        assertThat(od.successfulActiveHealthCheckUnejectHost()).isFalse();
        assertThat(od.isExplicit(OutlierSetting.MAX_EJECTION_PERCENT)).isTrue();
        assertThat(od.isExplicit(OutlierSetting.ENFORCING_SUCCESS_RATE)).isFalse();
        assertThat(od.enforcingPercent(EjectionType.SUCCESS_RATE)).isEqualTo(100);
        assertThat(c.problems()).isEmpty();
    }

    @Test
    void edsClusterHasNoHostCountAndPanicDisabledByEmptyPercent() {
        EnvoyCluster c = Corpus.envoy("envoy/eds-cluster.yaml").cluster(null);
        assertThat(c.discoveryType()).isEqualTo("EDS");
        assertThat(c.hosts()).isEmpty();
        assertThat(c.panicThresholdPercent()).isEqualTo(0.0);
        assertThat(c.outlierDetection().consecutive5xx()).isEqualTo(3);
        assertThat(c.outlierDetection().intervalNanos()).isEqualTo(5 * Durations.SECOND);
        assertThat(c.outlierDetection().maxEjectionTimeNanos()).isEqualTo(300 * Durations.SECOND);
    }

    @Test
    void healthChecksAreRead() {
        EnvoyCluster c = Corpus.envoy("envoy/health-checked-cluster.yaml").cluster(null);
        assertThat(c.healthChecks().intervalNanos()).isEqualTo(5 * Durations.SECOND);
        assertThat(c.healthChecks().unhealthyThreshold()).isEqualTo(3);
        assertThat(c.healthChecks().healthyThreshold()).isEqualTo(2);
        assertThat(c.hosts()).hasSize(4).first().isEqualTo("inventory-a.internal:9000");
        assertThat(c.outlierDetection().successfulActiveHealthCheckUnejectHost())
                .isTrue();
    }

    @Test
    void listWithAnchorsAndMergeKeys() {
        EnvoyConfig config = Corpus.envoy("envoy/clusters-list.yaml");
        assertThat(config.kind()).isEqualTo(EnvoyConfig.Kind.CLUSTER_LIST);
        assertThat(config.names()).isEqualTo("payments, ledger");
        assertThat(config.cluster("payments").hosts())
                .containsExactly("payments-0", "payments-1", "payments-2", "payments-3", "payments-4");
        OutlierDetectionConfig ledger = config.cluster("ledger").outlierDetection();
        assertThat(ledger.maxEjectionPercent()).isEqualTo(34);
        assertThat(ledger.alwaysEjectOneHost()).isTrue();
        assertThat(ledger.baseEjectionTimeNanos()).isEqualTo(30 * Durations.SECOND);
        assertThatThrownBy(() -> config.cluster(null))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("choose one with --cluster NAME: payments, ledger");
        assertThatThrownBy(() -> config.cluster("orders"))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("no cluster named 'orders'; the clusters are: payments, ledger");
    }

    @Test
    void bootstrapStaticClustersWithListenerExtensions() {
        EnvoyConfig config = Corpus.envoy("envoy/bootstrap.yaml");
        assertThat(config.kind()).isEqualTo(EnvoyConfig.Kind.BOOTSTRAP);
        assertThat(config.names()).isEqualTo("search, metrics_sink");
        EnvoyCluster search = config.cluster(null);
        assertThat(search.name()).isEqualTo("search");
        assertThat(search.outlierDetection()).isEqualTo(OutlierDetectionConfig.defaults());
        assertThat(config.cluster("metrics_sink").hasOutlierDetection()).isFalse();
        assertThatThrownBy(() -> config.cluster("metrics_sink").requireValid())
                .hasMessageContaining("has no outlier_detection");
    }

    @Test
    void cdsDiscoveryResponse() {
        EnvoyConfig config = Corpus.envoy("envoy/cds-response.yaml");
        assertThat(config.kind()).isEqualTo(EnvoyConfig.Kind.DISCOVERY_RESPONSE);
        EnvoyCluster reviews = config.cluster("reviews");
        assertThat(reviews.panicThresholdPercent()).isEqualTo(45.0);
        assertThat(reviews.hosts()).hasSize(5);
        assertThat(reviews.outlierDetection().maxEjectionTimeJitterNanos()).isEqualTo(2 * Durations.SECOND);
        assertThat(reviews.outlierDetection().failurePercentageThreshold()).isEqualTo(50);
        assertThat(config.cluster("ratings").hosts()).isEmpty();
    }

    @Test
    void jsonNamesAndATopLevelTypeAreAccepted() {
        String json = "{\"@type\": \"type.googleapis.com/envoy.config.cluster.v3.Cluster\", \"name\": \"a\","
                + " \"connectTimeout\": \"1s\", \"outlierDetection\": {\"maxEjectionPercent\": 50,"
                + " \"baseEjectionTime\": \"0.5s\"}}";
        EnvoyCluster c = EnvoyConfigReader.read(json, "a.json").cluster(null);
        assertThat(c.outlierDetection().maxEjectionPercent()).isEqualTo(50);
        assertThat(c.outlierDetection().baseEjectionTimeNanos()).isEqualTo(500 * Durations.MILLISECOND);
    }

    @Test
    void malformedYamlHasLineAndColumn() {
        assertThatThrownBy(() -> Corpus.envoy("envoy/bad/malformed.yaml"))
                .isInstanceOf(InputException.class)
                .hasMessageStartingWith("envoy/bad/malformed.yaml:4:")
                .hasMessageContaining("malformed YAML");
    }

    @Test
    void unknownFieldIsNamedWithItsPathAndLine() {
        assertThatThrownBy(() -> Corpus.envoy("envoy/bad/unknown-field.yaml"))
                .isInstanceOf(InputException.class)
                .hasMessageStartingWith(
                        "envoy/bad/unknown-field.yaml:6: unknown field 'outlier_detection.max_ejection_percentage'")
                .hasMessageContaining("envoy.config.cluster.v3.OutlierDetection")
                .hasMessageContaining("did you mean");
    }

    @Test
    void wrongTypeIsNamed() {
        assertThatThrownBy(() -> Corpus.envoy("envoy/bad/wrong-type.yaml"))
                .isInstanceOf(InputException.class)
                .hasMessage(
                        "envoy/bad/wrong-type.yaml:5: outlier_detection.consecutive_5xx: \"five\" is the wrong type;"
                                + " expected a whole number from 0 to 4294967295");
        assertThatThrownBy(() -> Corpus.envoy("envoy/bad/wrong-duration.yaml"))
                .hasMessageContaining("wrong-duration.yaml:4: outlier_detection.interval: \"250ms\" is the wrong type;"
                        + " expected a duration in seconds");
    }

    @Test
    void unknownTypeIsNamed() {
        assertThatThrownBy(() -> Corpus.envoy("envoy/bad/unknown-type.yaml"))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("unknown-type.yaml:5:")
                .hasMessageContaining("@type type.googleapis.com/envoy.extensions.upstreams.http.v3.HttpProtocolOption"
                        + " is not a type the reader knows");
    }

    @Test
    void v2TypesAreRefusedWithTheReason() {
        String text = "resources:\n- \"@type\": type.googleapis.com/envoy.api.v2.Cluster\n  name: a\n";
        assertThatThrownBy(() -> EnvoyConfigReader.read(text, "cds.yaml"))
                .hasMessageContaining("cds.yaml:2:")
                .hasMessageContaining("v2 API type");
    }

    @Test
    void emptyFile() {
        assertThatThrownBy(() -> Corpus.envoy("envoy/bad/empty.yaml"))
                .isInstanceOf(InputException.class)
                .hasMessage("envoy/bad/empty.yaml: the file is empty; expected an Envoy Cluster, a list of clusters, "
                        + "a bootstrap (static_resources.clusters) or a CDS DiscoveryResponse");
    }

    @Test
    void valuesEnvoyRejectsAreProblemsNamingTheField() {
        EnvoyCluster c = Corpus.envoy("envoy/bad/rejected-values.yaml").cluster(null);
        assertThat(c.outlierDetection()).isNull();
        assertThat(c.problems())
                .extracting(p -> p.key())
                .containsExactly("outlier_detection.max_ejection_percent", "outlier_detection.max_ejection_time");
        assertThatThrownBy(c::requireValid)
                .isInstanceOf(InputException.class)
                .hasMessageContaining(
                        "rejected-values.yaml:12: cluster 'search': outlier_detection.max_ejection_percent: 120"
                                + " is not allowed; expected a whole number from 0 to 100");
    }

    @Test
    void subMillisecondDurationsAreTruncatedAsEnvoyReadsThem() {
        String text = "name: a\noutlier_detection:\n  interval: 10.0005s\n  base_ejection_time: 30.0009s\n";
        EnvoyCluster c = EnvoyConfigReader.read(text, "a.yaml").cluster(null);
        assertThat(c.problems()).isEmpty();
        assertThat(c.outlierDetection().intervalNanos()).isEqualTo(10_000_000_000L);
        assertThat(c.outlierDetection().baseEjectionTimeNanos()).isEqualTo(30_000_000_000L);
        assertThat(c.notes()).anySatisfy(n -> assertThat(n).contains("interval 10.0005s is read as 10000 ms"));
        // below a millisecond an interval would be 0 ms: Envoy runs that, the lab does not
        EnvoyCluster zero = EnvoyConfigReader.read("name: a\noutlier_detection:\n  interval: 0.0005s\n", "a.yaml")
                .cluster(null);
        assertThat(zero.problems()).hasSize(1);
        assertThat(zero.problems().get(0).error().getMessage())
                .contains("outlier_detection.interval: 0.0005s")
                .contains("a 0 ms interval, which the lab does not simulate");
    }

    @Test
    void oneofConflictIsNamed() {
        String text = "name: a\ntype: STATIC\ncluster_type: {name: envoy.clusters.aggregate}\n";
        assertThatThrownBy(() -> EnvoyConfigReader.read(text, "a.yaml"))
                .hasMessageContaining("a.yaml:3: cluster_type: only one of type and cluster_type may be set");
    }

    @Test
    void badEnumNamesTheChoices() {
        assertThatThrownBy(() -> EnvoyConfigReader.read("name: a\ntype: STATIK\n", "a.yaml"))
                .hasMessageContaining(
                        "a.yaml:2: type: \"STATIK\" is the wrong type; expected one of STATIC, STRICT_DNS");
    }

    @Test
    void enumNamesInAnyCaseAreEnvoysNames() {
        String text = "name: a\ntype: strict_dns\nlb_policy: Round_Robin\nload_assignment:\n  cluster_name: a\n"
                + "  endpoints: [{lb_endpoints: [{endpoint: {address: {socket_address: {address: a.example, port_value: 80, "
                + "protocol: tcp}}}}]}]\noutlier_detection: {}\n";
        EnvoyCluster c = EnvoyConfigReader.read(text, "a.yaml").cluster(null);
        assertThat(c.discoveryType()).isEqualTo("STRICT_DNS");
        assertThat(c.hosts()).containsExactly("a.example:80");
    }

    @Test
    void undefinedEnumNumberIsRefusedAsEnvoysDefinedOnlyDoes() {
        // /work/shared/hardening-cases/enum-999.yaml: type: 999 (Cluster.type has defined_only: true)
        assertThatThrownBy(() -> Corpus.envoy("hardening/enum-999.yaml"))
                .isInstanceOf(InputException.class)
                .hasMessage("hardening/enum-999.yaml:2: type: 999 is not a value of envoy.config.cluster.v3.Cluster."
                        + "DiscoveryType (Envoy accepts only defined values here: defined_only); expected one of STATIC, "
                        + "STRICT_DNS, LOGICAL_DNS, EDS, ORIGINAL_DST or its number");
        // a defined number is fine
        assertThat(EnvoyConfigReader.read("name: a\ntype: 1\noutlier_detection: {}\n", "a.yaml")
                        .cluster(null)
                        .discoveryType())
                .isEqualTo("STRICT_DNS");
    }

    @Test
    void fieldsNewerThanTheBundledProtosAreNotesOutsideOutlierDetection() {
        String text =
                "name: a\ntype: STATIC\nconnect_timeout: 1s\nfuture_knob: true\ntyped_extension_protocol_options:\n"
                        + "  envoy.extensions.upstreams.http.v3.HttpProtocolOptions:\n"
                        + "    '@type': type.googleapis.com/envoy.extensions.upstreams.http.v3.HttpProtocolOptions\n"
                        + "    hash_policy: [{header: {header_name: x}}]\n"
                        + "    explicit_http_config: {http2_protocol_options: {}}\noutlier_detection: {}\n";
        EnvoyConfig config = EnvoyConfigReader.read(text, "a.yaml");
        assertThat(config.notes())
                .containsExactly(
                        "line 4: future_knob is not a field of envoy.config.cluster.v3.Cluster in the bundled Envoy API "
                                + "(envoy api 1.0.49): read past, as a field of a newer Envoy; if it is not one, Envoy rejects the file",
                        "line 8: typed_extension_protocol_options.envoy.extensions.upstreams.http.v3.HttpProtocolOptions.hash_policy "
                                + "is not a field of envoy.extensions.upstreams.http.v3.HttpProtocolOptions in the bundled Envoy API "
                                + "(envoy api 1.0.49): read past, as a field of a newer Envoy; if it is not one, Envoy rejects the file");
        assertThat(config.cluster(null).hasOutlierDetection()).isTrue();
    }

    @Test
    void duplicateClusterNamesAreWhatEnvoyRejects() {
        // /work/shared/hardening-cases/dup-clusters.yaml: two clusters named a
        EnvoyConfig config = Corpus.envoy("hardening/dup-clusters.yaml");
        assertThat(config.clusters()).hasSize(2);
        assertThat(config.clusters().get(0).problems()).isEmpty();
        assertThat(config.clusters().get(1).problems()).singleElement().satisfies(p -> {
            assertThat(p.line()).isEqualTo(16);
            assertThat(p.error().getMessage())
                    .isEqualTo("name: 'a' is not allowed; expected a name no other cluster in "
                            + "the file has (Envoy: \"cluster manager: duplicate cluster 'a'\")");
        });
        assertThatThrownBy(() -> config.clusters().get(1).requireValid())
                .hasMessageContaining("hardening/dup-clusters.yaml:16: cluster 'a'");
    }

    @Test
    void aListWithNoClustersReadsAsNone() {
        EnvoyConfig config = Corpus.envoy("hardening/empty-list.yaml");
        assertThat(config.clusters()).isEmpty();
        assertThatThrownBy(() -> config.cluster(null))
                .hasMessage("hardening/empty-list.yaml: the list has no clusters");
    }

    @Test
    void healthCheckWithoutRequiredFieldsIsAProblem() {
        String text =
                "name: a\nhealth_checks:\n- interval: 5s\n  http_health_check: {path: /}\noutlier_detection: {}\n";
        EnvoyCluster c = EnvoyConfigReader.read(text, "a.yaml").cluster(null);
        assertThat(c.problems())
                .extracting(p -> p.key())
                .containsExactly(
                        "health_checks[0].timeout",
                        "health_checks[0].unhealthy_threshold",
                        "health_checks[0].healthy_threshold");
    }
}
