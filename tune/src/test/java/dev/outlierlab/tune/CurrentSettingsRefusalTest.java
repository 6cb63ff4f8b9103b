package dev.outlierlab.tune;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outlierlab.config.InputException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** A file whose settings no target writes is refused naming every target there is, from the registry. */
class CurrentSettingsRefusalTest {
    @Test
    void aKgatewayPolicyIsRefusedWithEveryRegisteredTarget() throws Exception {
        String text = Files.readString(
                Path.of("../check/src/test/resources/corpus/kgateway/outlier-detection-backendconfigpolicy.yaml"));
        assertThatThrownBy(() -> CurrentSettings.read(text, "policy.yaml"))
                .isInstanceOf(InputException.class)
                .hasMessageStartingWith(
                        "policy.yaml: kgateway translates these settings; tune writes an Envoy cluster, ")
                .hasMessageContaining("a gRPC service config (grpc-java)")
                .hasMessageEndingWith(", an nginx upstream, a HAProxy backend and a Caddy reverse_proxy only");
    }

    @Test
    void anEmptyFileIsRefusedNamingEveryFileTuneFromTakes() {
        for (String empty : new String[] {"", "\n\n", "# only a comment\n"}) {
            assertThatThrownBy(() -> CurrentSettings.read(empty, "/dev/null"))
                    .isInstanceOf(InputException.class)
                    .hasMessageStartingWith("/dev/null: the file is empty; tune --from takes an Envoy cluster, "
                            + "an Istio DestinationRule, ")
                    .hasMessageContaining("a gRPC service config (grpc-java)")
                    .hasMessageContaining("an nginx upstream, a HAProxy backend, a Caddy reverse_proxy")
                    .hasMessageContaining(" or a lab scenario (profile: envoy");
        }
    }
}
