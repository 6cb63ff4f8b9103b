package dev.outlierlab.engine.gateway;

/**
 * Receives a gateway detector's decisions with their numbers, on the caller's thread, as they happen.
 */
@FunctionalInterface
public interface GatewayListener {
    GatewayListener NONE = event -> {};

    void onEvent(GatewayEvent event);
}
