package dev.outlierlab.flink;

import dev.outlierlab.config.InputException;
import dev.outlierlab.sim.trace.TraceOrderException;
import org.apache.flink.util.SerializedThrowable;

/**
 * A failed job as the command reports it: bad input found by a worker (a log that cannot be read, an outcome
 * past {@code --duration}) is the same one-line message {@code replay} gives, exit 2; anything else is the job's
 * failure with its first cause, never a partial report.
 */
final class JobFailure {
    private JobFailure() {
    }

    static RuntimeException of(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof InputException input) {
                return input;
            }
            if (t instanceof TraceOrderException order) {
                return new InputException("an outcome " + order.detail() + " (raise --duration)");
            }
            if (t instanceof SerializedThrowable s) {
                Throwable original = s.deserializeError(JobFailure.class.getClassLoader());
                if (original != s) {
                    return of(original);
                }
                if (InputException.class.getName().equals(s.getOriginalErrorClassName())) {
                    return new InputException(s.getMessage());
                }
            }
            if (t.getCause() == t) {
                break;
            }
        }
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return new IllegalStateException("the Flink job failed: " + root, e);
    }
}
