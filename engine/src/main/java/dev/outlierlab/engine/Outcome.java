package dev.outlierlab.engine;

import java.util.Locale;

/**
 * The outcome of one attempt to an endpoint, as one {@code int} so that reporting it allocates nothing: an
 * HTTP status (100 to 599) stands for itself, and a local result (no status reached the caller) is one of the
 * negative constants below. A failure is a 5xx or a local failure (timeout, connect failure, reset); the two
 * connect-success signals are Envoy's {@code LOCAL_ORIGIN_CONNECT_SUCCESS(_FINAL)}: they say a connection was
 * made and are neither a success nor a failure of the request. Each profile maps outcomes to its own rules.
 */
public final class Outcome {
    /** The attempt timed out before a response (Envoy: {@code LOCAL_ORIGIN_TIMEOUT}). */
    public static final int TIMEOUT = -1;
    /** No connection could be made (Envoy: {@code LOCAL_ORIGIN_CONNECT_FAILED}). */
    public static final int CONNECT_FAILED = -2;
    /** The stream or connection was reset before a response (Envoy's router reports it as a connect failure). */
    public static final int RESET = -3;
    /** A connection was handed over; the response is still to come (Envoy: {@code LOCAL_ORIGIN_CONNECT_SUCCESS}). */
    public static final int CONNECT_SUCCESS = -4;
    /** A connection was made and nothing more will be reported (Envoy: {@code LOCAL_ORIGIN_CONNECT_SUCCESS_FINAL}). */
    public static final int CONNECT_SUCCESS_FINAL = -5;

    private static final String[] LOCAL_NAMES = {
        "timeout", "connect_failed", "reset", "connect_success", "connect_success_final"
    };

    private Outcome() {}

    /** The outcome for an HTTP status; throws {@link InvalidConfigException} outside 100 to 599. */
    public static int http(int status) {
        if (!isHttp(status)) {
            throw new InvalidConfigException("status", Integer.toString(status), "an HTTP status from 100 to 599");
        }
        return status;
    }

    /** Whether the outcome is an HTTP status. */
    public static boolean isHttp(int outcome) {
        return outcome >= 100 && outcome <= 599;
    }

    /** Whether the outcome is one of the local results (negative constants). */
    public static boolean isLocal(int outcome) {
        return outcome <= TIMEOUT && outcome >= CONNECT_SUCCESS_FINAL;
    }

    /** Whether the outcome is a connect-success signal: neither a success nor a failure of the request. */
    public static boolean isConnectSignal(int outcome) {
        return outcome == CONNECT_SUCCESS || outcome == CONNECT_SUCCESS_FINAL;
    }

    /** A failed attempt: a 5xx, a timeout, a connect failure or a reset. */
    public static boolean isFailure(int outcome) {
        return (outcome >= 500 && outcome <= 599)
                || outcome == TIMEOUT
                || outcome == CONNECT_FAILED
                || outcome == RESET;
    }

    /** A request-level result that is not a failure: any status below 500 (4xx and 429 included). */
    public static boolean isSuccess(int outcome) {
        return outcome >= 100 && outcome <= 499;
    }

    /** The outcome's name for output: the status as digits, or a local result's name such as {@code timeout}. */
    public static String name(int outcome) {
        if (isHttp(outcome)) {
            return Integer.toString(outcome);
        }
        if (isLocal(outcome)) {
            return LOCAL_NAMES[-outcome - 1];
        }
        throw new IllegalArgumentException("not an outcome: " + outcome);
    }

    /** The outcome named by {@link #name(int)} (case-insensitive), or throws {@link InvalidConfigException}. */
    public static int parse(String text) {
        String lower = text.trim().toLowerCase(Locale.ROOT);
        for (int i = 0; i < LOCAL_NAMES.length; i++) {
            if (LOCAL_NAMES[i].equals(lower)) {
                return -(i + 1);
            }
        }
        try {
            int status = Integer.parseInt(lower);
            if (isHttp(status)) {
                return status;
            }
        } catch (NumberFormatException ignored) {
            // falls through to the message below
        }
        throw new InvalidConfigException(
                "outcome",
                "\"" + text + "\"",
                "an HTTP status from 100 to 599 or one of " + String.join(", ", LOCAL_NAMES));
    }
}
