package dev.outlierlab.flink;

import dev.outlierlab.config.InputException;
import dev.outlierlab.sim.trace.TraceOrderException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.util.SerializedThrowable;

/**
 * A failed job as the command reports it: bad input found by a worker (a log that cannot be read, an outcome
 * past {@code --duration}) is the same one-line message {@code replay} gives, exit 2; a failure of the tool's own
 * code on a worker is an internal error (exit 70, as locally); anything else is the cluster's (a lost
 * TaskManager or JobManager beyond the job's restarts): {@link Failed}, one message with what to set, exit 1.
 * Never a partial report.
 */
final class JobFailure {
    private static final String OWN_CODE = "dev.outlierlab.";

    private JobFailure() {}

    /** The job failed for reasons of the cluster, not of the input or the tool. */
    static final class Failed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Failed(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Bad input found on a worker, as the failure that the restart strategy does not retry: reading the same
     * file again gives the same error.
     */
    static RuntimeException notRetried(RuntimeException input) {
        return new SuppressRestartsException(input);
    }

    static RuntimeException of(Throwable e) {
        List<Throwable> chain = new ArrayList<>();
        for (Throwable t = e; t != null && chain.size() < 100; t = t.getCause()) {
            if (t instanceof SerializedThrowable s) {
                Throwable original = s.deserializeError(JobFailure.class.getClassLoader());
                if (original != s) {
                    t = original;
                } else if (InputException.class.getName().equals(s.getOriginalErrorClassName())) {
                    return new InputException(s.getMessage());
                }
            }
            if (t instanceof InputException input) {
                return input;
            }
            if (t instanceof TraceOrderException order) {
                return new InputException("an outcome " + order.detail() + " (raise --duration)");
            }
            chain.add(t);
            if (t.getCause() == t) {
                break;
            }
        }
        Throwable root = chain.isEmpty() ? e : chain.get(chain.size() - 1);
        for (Throwable t : chain) {
            StackTraceElement[] at = t.getStackTrace();
            if (at.length > 0 && at[0].getClassName().startsWith(OWN_CODE)) {
                return new IllegalStateException("the Flink job failed: " + t, e);
            }
        }
        String why = String.valueOf(root);
        if (why.length() > 300) {
            why = why.substring(0, 300) + "...";
        }
        return new Failed(
                "the Flink job failed (" + why + "). A lost TaskManager or JobManager is recovered by "
                        + "the restart strategy (the job's default: restart-strategy.type: exponential-delay); check the "
                        + "cluster's TaskManagers, or allow more restarts "
                        + "(restart-strategy.exponential-delay.attempts-before-reset-backoff)",
                e);
    }
}
