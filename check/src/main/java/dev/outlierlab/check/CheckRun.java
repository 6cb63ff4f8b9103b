package dev.outlierlab.check;

import dev.outlierlab.engine.envoy.EnvoyVersion;
import java.util.List;

/**
 * The files of one {@code check} and the report made of them, in the form its renderer needs: streamed cluster by
 * cluster ({@link #streamed()}, for text over many clusters) or held whole ({@link #whole()}, for JSON and SARIF).
 * After rendering, it answers the exit status and the files that could not be read from whichever report was made.
 */
public final class CheckRun {
    private final String label;
    private final List<CheckInputs.Loaded> inputs;
    private final Integer hosts;
    private final Long rps;
    private final EnvoyVersion version;
    private final int clients;
    private StreamedReport streamed;
    private CheckReport whole;

    /** The files read ({@code inputs}) under {@code label}, with {@code rps} shared over {@code clients} callers. */
    public CheckRun(
            String label, List<CheckInputs.Loaded> inputs, Integer hosts, Long rps, EnvoyVersion version, int clients) {
        this.label = label;
        this.inputs = inputs;
        this.hosts = hosts;
        this.rps = rps;
        this.version = version;
        this.clients = clients;
    }

    /** The report worked out cluster by cluster as it is written. */
    public StreamedReport streamed() {
        streamed = StreamedReport.of(label, inputs, hosts, rps, version, clients);
        return streamed;
    }

    /** The report held whole. */
    public CheckReport whole() {
        whole = CheckReport.ofFiles(label, inputs, hosts, rps, version, clients);
        return whole;
    }

    /** The files that could not be read, from the report made. */
    public List<Finding> unreadable() {
        return streamed != null ? streamed.unreadable() : made().unreadable();
    }

    /** The exit status for findings at {@code failOn} or above, from the report made. */
    public int exitCode(Severity failOn) {
        return streamed != null ? streamed.exitCode(failOn) : made().exitCode(failOn);
    }

    private CheckReport made() {
        if (whole == null) {
            throw new IllegalStateException("no report was made of " + label);
        }
        return whole;
    }
}
