package dev.outlierlab.engine.gateway;

/**
 * One decision of a gateway detector with its numbers. For ejections ({@code eject}, or {@code would_eject}
 * in shadow) {@code reason}, {@code evidence} and {@code returnAtNanos} are set; for returns
 * {@code outForNanos} says how long the endpoint was out and reason and evidence are null.
 *
 * @param timeNanos     when (the outcome that caused the ejection, or the look that returned it)
 * @param process       the gateway process whose samples decided
 * @param endpoint      the endpoint's index in routing order
 * @param endpointName  the endpoint's name
 * @param returnAtNanos for ejections: the earliest time it may return ({@code time + ejection_time})
 */
public record GatewayEvent(
        long timeNanos,
        int process,
        int endpoint,
        String endpointName,
        GatewayAction action,
        EjectionReason reason,
        GatewayEvidence evidence,
        long returnAtNanos,
        long outForNanos) {}
