package dev.outlierlab.cli;

import dev.outlierlab.check.CheckInputs;

/**
 * A profile's facet in {@code check --profile NAME}: Envoy configuration as this profile's client reads it, with the
 * profile's findings in place of Envoy's.
 */
public interface CheckAsClient {
    /**
     * The findings of the clusters {@code envoy} holds, as this profile's client reads them.
     *
     * @param implementation the profile's implementation named on the command line (gRPC's java, go or core), or null
     */
    CheckInputs.Loaded asClient(CheckInputs.Loaded envoy, String implementation);
}
