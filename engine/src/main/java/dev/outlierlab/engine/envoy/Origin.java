package dev.outlierlab.engine.envoy;

/**
 * Where an error came from: the upstream's response (external, e.g. an HTTP 5xx) or the proxy's own view
 * of the connection (local, e.g. a timeout or a refused connect). Envoy keeps a separate success-rate
 * monitor for each; local-origin ones only count with {@code split_external_local_origin_errors}.
 */
public enum Origin {
    EXTERNAL,
    LOCAL
}
