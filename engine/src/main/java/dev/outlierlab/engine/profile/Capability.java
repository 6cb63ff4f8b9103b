package dev.outlierlab.engine.profile;

/**
 * What a profile can do beyond running a scenario, written as a positive set ({@link Profile#capabilities}) so that a
 * new profile can do nothing it does not name: the front ends offer an option to the profiles that list what it
 * needs and refuse it for the others.
 */
public enum Capability {
    /**
     * Runs on the lab's Envoy simulation and is reported as Envoy's cluster is (decisions, hinges, signals): what
     * {@code run} does for a profile without a runner of its own.
     */
    ENVOY_REPORT,
    /** Replays a trace of recorded outcomes ({@code run --trace-in}). */
    TRACE_REPLAY,
    /** Writes the run's requests as a proxy's access log ({@code run --access-log}). */
    ACCESS_LOG,
    /** Writes Envoy's outlier event log ({@code run --event-log}). */
    EVENT_LOG,
    /** Prints Envoy's admin statistics ({@code run --stats}). */
    ADMIN_STATS,
    /** Writes the operators' signals as a time series ({@code run --series}). */
    SIGNAL_SERIES,
    /** Writes each request's stage record ({@code run --stages}). */
    STAGE_RECORDS,
    /** Writes its decisions as a CSV table ({@code run --format csv}). */
    DECISION_CSV,
    /** Takes its cluster from real proxy configuration ({@code --envoy}, {@code --istio}). */
    CLUSTER_FROM_CONFIG,
    /** Runs the scenario's active health checks, through which an ejected host may return. */
    HEALTH_CHECKS,
    /** Runs as one column of {@code run --profile A,B} over another profile's scenario. */
    COMPARISON_COLUMN,
    /** Its scenarios can be run under other profiles side by side ({@code run --profile A,B}). */
    COMPARISON_BASE,
    /**
     * Takes gRPC's settings from a service config and a client implementation ({@code --service-config},
     * {@code --grpc-implementation}); a run given them without {@code --profile} runs under the first such profile.
     */
    SERVICE_CONFIG
}
