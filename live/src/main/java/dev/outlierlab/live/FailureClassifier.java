package dev.outlierlab.live;

import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeoutException;
import java.util.function.IntPredicate;

/**
 * What counts as a failure for a pool, decided once per attempt before it is recorded, in the spirit of
 * Resilience4j's {@code CircuitBreakerConfig.recordResult} and {@code recordExceptions} and Armeria's
 * {@code CircuitBreakerRule}. By default ({@link #defaults()}) a 5xx fails and every other status succeeds (4xx
 * and 429 included), as both profiles say; every exception is recorded as a local-origin failure (a timeout, a
 * refused connection, or otherwise a reset). A gRPC status, when the answer carries one ({@code grpc-status}),
 * is first mapped to the HTTP status Envoy's router reports to its outlier detector
 * ({@code Grpc::Utility::grpcToHttpStatus}: UNAVAILABLE 503, DEADLINE_EXCEEDED 504, INTERNAL, UNKNOWN and
 * DATA_LOSS 500, UNIMPLEMENTED 501, RESOURCE_EXHAUSTED 429, ...). The detectors only see statuses: an attempt
 * classified as failing with a status under 500 is recorded as 500, one classified as succeeding with a 5xx as
 * 200; other statuses are recorded as they are, so Envoy's gateway-failure detector still sees 502, 503 and 504.
 */
public final class FailureClassifier {
    private static final FailureClassifier DEFAULTS = builder().build();

    private final IntPredicate failingStatus;
    private final List<Class<? extends Throwable>> ignored;
    private final boolean grpc;

    private FailureClassifier(Builder b) {
        this.failingStatus = b.failingStatus;
        this.ignored = List.copyOf(b.ignored);
        this.grpc = b.grpc;
    }

    /** 5xx fails, everything else succeeds; every exception is a failure; gRPC statuses mapped as Envoy does. */
    public static FailureClassifier defaults() {
        return DEFAULTS;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * The status to record for an answer: {@code httpStatus} (100 to 599), or, when {@code grpcStatus} is 0 or
     * more and gRPC mapping is on, that gRPC status mapped to HTTP; then forced to 500 or 200 as the rule says.
     */
    public int statusToRecord(int httpStatus, int grpcStatus) {
        int status = grpc && grpcStatus >= 0 ? grpcToHttpStatus(grpcStatus) : httpStatus;
        boolean fails = failingStatus.test(status);
        if (fails) {
            return status >= 500 ? status : 500;
        }
        return status >= 500 ? 200 : status;
    }

    /** {@link #statusToRecord(int, int)} without a gRPC status. */
    public int statusToRecord(int httpStatus) {
        return statusToRecord(httpStatus, -1);
    }

    /** Whether an answer with this status (and gRPC status, or -1) counts as a failure. */
    public boolean fails(int httpStatus, int grpcStatus) {
        return statusToRecord(httpStatus, grpcStatus) >= 500;
    }

    /**
     * The local-origin failure to record for an attempt that ended in {@code error}, or null when the error is
     * of an ignored kind (nothing is recorded: the attempt says nothing about the upstream, e.g. the caller
     * cancelled it). Timeouts anywhere in the cause chain are {@link LocalFailure#TIMEOUT}, refused or timed-out
     * connects {@link LocalFailure#CONNECT_FAILED}, anything else {@link LocalFailure#RESET}.
     */
    public LocalFailure failureToRecord(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            for (Class<? extends Throwable> c : ignored) {
                if (c.isInstance(t)) {
                    return null;
                }
            }
        }
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof HttpConnectTimeoutException || t instanceof ConnectException) {
                return LocalFailure.CONNECT_FAILED;
            }
            if (t instanceof HttpTimeoutException
                    || t instanceof SocketTimeoutException
                    || t instanceof TimeoutException) {
                return LocalFailure.TIMEOUT;
            }
        }
        return LocalFailure.RESET;
    }

    /** Envoy's {@code Grpc::Utility::grpcToHttpStatus} (source/common/grpc/status.cc). */
    public static int grpcToHttpStatus(int grpcStatus) {
        return switch (grpcStatus) {
            case 0 -> 200; // OK
            case 1 -> 499; // CANCELLED
            case 2 -> 500; // UNKNOWN
            case 3 -> 400; // INVALID_ARGUMENT
            case 4 -> 504; // DEADLINE_EXCEEDED
            case 5 -> 404; // NOT_FOUND
            case 6 -> 409; // ALREADY_EXISTS
            case 7 -> 403; // PERMISSION_DENIED
            case 8 -> 429; // RESOURCE_EXHAUSTED
            case 9 -> 400; // FAILED_PRECONDITION
            case 10 -> 409; // ABORTED
            case 11 -> 400; // OUT_OF_RANGE
            case 12 -> 501; // UNIMPLEMENTED
            case 13 -> 500; // INTERNAL
            case 14 -> 503; // UNAVAILABLE
            case 15 -> 500; // DATA_LOSS
            case 16 -> 401; // UNAUTHENTICATED
            default -> 500; // Envoy: InvalidCode and anything unknown
        };
    }

    /** Collects the rules; unset ones keep the defaults. */
    public static final class Builder {
        private IntPredicate failingStatus = status -> status >= 500;
        private final List<Class<? extends Throwable>> ignored = new ArrayList<>();
        private boolean grpc = true;

        private Builder() {}

        /** Which (HTTP, or gRPC mapped to HTTP) statuses fail; Resilience4j's {@code recordResult}. */
        public Builder recordResult(IntPredicate failing) {
            this.failingStatus = Objects.requireNonNull(failing, "failing status rule");
            return this;
        }

        /** A 429 (too many requests; RESOURCE_EXHAUSTED in gRPC) fails, for an LLM gateway whose upstream is out of quota. */
        public Builder failOn429() {
            IntPredicate before = failingStatus;
            this.failingStatus = status -> status == 429 || before.test(status);
            return this;
        }

        /** Exceptions of these kinds (anywhere in the cause chain) are not recorded; Resilience4j's {@code ignoreExceptions}. */
        @SafeVarargs
        public final Builder ignoreExceptions(Class<? extends Throwable>... kinds) {
            for (Class<? extends Throwable> k : kinds) {
                ignored.add(Objects.requireNonNull(k, "exception kind"));
            }
            return this;
        }

        /** Whether a {@code grpc-status} is mapped to HTTP as Envoy does (on by default). */
        public Builder mapGrpcStatus(boolean on) {
            this.grpc = on;
            return this;
        }

        public FailureClassifier build() {
            return new FailureClassifier(this);
        }
    }
}
