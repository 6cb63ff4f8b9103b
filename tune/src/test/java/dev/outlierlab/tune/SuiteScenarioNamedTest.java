package dev.outlierlab.tune;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outlierlab.config.InputException;
import java.util.List;
import org.junit.jupiter.api.Test;

class SuiteScenarioNamedTest {
    @Test
    void aScenarioIsFoundByNameAndAnotherNameIsRefusedWithTheSuitesNames() {
        List<SuiteScenario> suite = new DefaultSuite(6, 300, 1, 0).scenarios();
        SuiteScenario first = suite.get(0);
        assertThat(SuiteScenario.named(suite, first.name(), "--explain")).isSameAs(first);
        assertThat(first.scenario().cluster().hosts()).hasSize(6);
        assertThatThrownBy(() -> SuiteScenario.named(suite, "no-such", "--explain"))
                .isInstanceOf(InputException.class)
                .hasMessageStartingWith(
                        "--explain: 'no-such' is not a scenario of the suite; expected one of " + first.name() + ", ")
                .hasMessageContaining(suite.get(suite.size() - 1).name());
    }
}
