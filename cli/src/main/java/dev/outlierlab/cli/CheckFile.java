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

    /** The file's findings, each at its file and line: every part's (upstream, backend) when it has several. */
    CheckInputs.Loaded check(String text, String source);

    /**
     * The findings of the part named {@code part} ({@code --upstream NAME}, {@code --backend NAME}); a name the file
     * does not have is refused with one message that lists those it has. By default the file has no parts to name.
     */
    default CheckInputs.Loaded check(String text, String source, String part) {
        return check(text, source);
    }

    /** The option that names one of this profile's parts ({@code --upstream}), or null when it has none. */
    default String partOption() {
        return null;
    }

    /** Whether a file of this name, found in a directory given to {@code check}, is this profile's configuration. */
    default boolean namedLike(String fileName) {
        return false;
    }
}
