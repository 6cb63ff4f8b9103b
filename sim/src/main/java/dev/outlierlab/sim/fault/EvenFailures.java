package dev.outlierlab.sim.fault;

import dev.outlierlab.sim.scenario.FaultSpec;

/** The even pattern: request {@code k} fails as {@link FaultSpec#fails} says, a function of {@code k} alone. */
final class EvenFailures implements FailureSequence {
    private final FaultSpec fault;

    EvenFailures(FaultSpec fault) {
        this.fault = fault;
    }

    @Override
    public boolean fails(long k) {
        return fault.fails(k);
    }

    @Override
    public boolean indexed() {
        return true;
    }
}
