package dev.outlierlab.accesslog;

/**
 * One line that reached a host's detector, as replay uses it: when the stream ended (start time plus duration,
 * in epoch nanoseconds), which cluster and proxy instance logged it, the host, the code and the {@link Outcome}.
 *
 * @param cluster the upstream cluster, or "" when the format does not log it
 * @param instance the proxy instance ({@code --instance-field}, or the file with one instance per file), or ""
 * @param input the index of the input it came from, and {@code line} its line there
 * @param hostName the host's number among the names read (the same for the same name, in every input)
 */
public record LogEntry(long endEpochNanos, String cluster, String instance, String host, int code, Outcome outcome,
                       int input, long line, int hostName) {
}
