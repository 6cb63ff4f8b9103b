package dev.outlierlab.engine.nginx;

/** Receives an nginx worker's decisions with their numbers, on the caller's thread, as they happen. */
@FunctionalInterface
public interface NginxListener {
    NginxListener NONE = event -> {};

    void onEvent(NginxEvent event);
}
