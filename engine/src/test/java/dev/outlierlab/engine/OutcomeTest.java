package dev.outlierlab.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Outcome codes: which are failures, their names, and parsing them back. */
class OutcomeTest {
    @Test
    void fiveHundredsAndLocalFailuresFailEverythingElseSucceedsOrIsASignal() {
        assertThat(Outcome.isFailure(500)).isTrue();
        assertThat(Outcome.isFailure(599)).isTrue();
        assertThat(Outcome.isFailure(Outcome.TIMEOUT)).isTrue();
        assertThat(Outcome.isFailure(Outcome.CONNECT_FAILED)).isTrue();
        assertThat(Outcome.isFailure(Outcome.RESET)).isTrue();
        assertThat(Outcome.isFailure(499)).isFalse();
        assertThat(Outcome.isSuccess(400)).isTrue();
        assertThat(Outcome.isSuccess(429)).isTrue();
        assertThat(Outcome.isSuccess(200)).isTrue();
        assertThat(Outcome.isSuccess(Outcome.CONNECT_SUCCESS)).isFalse();
        assertThat(Outcome.isFailure(Outcome.CONNECT_SUCCESS)).isFalse();
        assertThat(Outcome.isConnectSignal(Outcome.CONNECT_SUCCESS_FINAL)).isTrue();
        assertThat(Outcome.isConnectSignal(Outcome.TIMEOUT)).isFalse();
    }

    @Test
    void namesRoundTrip() {
        for (int outcome : new int[] {
            100,
            200,
            404,
            503,
            Outcome.TIMEOUT,
            Outcome.CONNECT_FAILED,
            Outcome.RESET,
            Outcome.CONNECT_SUCCESS,
            Outcome.CONNECT_SUCCESS_FINAL
        }) {
            assertThat(Outcome.parse(Outcome.name(outcome))).isEqualTo(outcome);
        }
        assertThat(Outcome.name(Outcome.RESET)).isEqualTo("reset");
        assertThat(Outcome.parse(" Timeout ")).isEqualTo(Outcome.TIMEOUT);
    }

    @Test
    void badOutcomesNameTheValueAndWhatIsAllowed() {
        assertThatThrownBy(() -> Outcome.parse("600"))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("\"600\"")
                .hasMessageContaining("timeout, connect_failed, reset");
        assertThatThrownBy(() -> Outcome.http(99)).isInstanceOf(InvalidConfigException.class);
        assertThatThrownBy(() -> Outcome.name(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
