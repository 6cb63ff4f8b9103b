package dev.outlierlab.cli;

import dev.outlierlab.check.CheckInputs;

/**
 * A profile's facet in {@code check FILE}: a configuration file of the profile's own server (an nginx.conf, a
 * haproxy.cfg, a Caddyfile), recognised by its name or its content, and its findings. {@code check} asks every
 * profile with this facet, in rank order, before reading a file as Envoy or Kubernetes configuration.
 */
public interface CheckFile {
    /** Whether {@code text}, read from {@code source} (a path, or {@code -}), is this profile's configuration. */
    boolean recognises(String text, String source);

    /** The file's findings, each at its file and line. */
    CheckInputs.Loaded check(String text, String source);
}
