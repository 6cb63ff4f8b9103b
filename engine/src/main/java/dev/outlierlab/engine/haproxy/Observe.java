package dev.outlierlab.engine.haproxy;

import dev.outlierlab.engine.Outcome;

/**
 * A server's {@code observe} mode and what it counts ({@code analyze_statuses} and {@code __health_adjust} in
 * HAProxy's {@code src/check.c}, the statuses reported from {@code src/stream.c}, {@code src/backend.c} and
 * {@code src/http_ana.c}, 2.6):
 * <ul>
 * <li>{@code layer4}: a failed connection ({@code L4_ERR}, each failed connect attempt, before retries) is an
 * error; an established one ({@code L4_OK}) is good; HTTP statuses and read errors are ignored;</li>
 * <li>{@code layer7}: a failed connection, a read error or timeout, a close from the server and a status other
 * than 100-499, 501 and 505 are errors (so 500, 502, 503, 504 are); any other status is good; an established
 * connection is ignored.</li>
 * </ul>
 */
public enum Observe {
    NONE("none"),
    LAYER4("layer4"),
    LAYER7("layer7");

    /** The result of one outcome for the consecutive-error count. */
    public enum Verdict {
        IGNORED,
        GOOD,
        ERROR
    }

    private final String word;

    Observe(String word) {
        this.word = word;
    }

    public String word() {
        return word;
    }

    public Verdict verdict(int outcome) {
        if (this == NONE) {
            return Verdict.IGNORED;
        }
        if (outcome == Outcome.CONNECT_FAILED) {
            return Verdict.ERROR;
        }
        if (this == LAYER4) {
            return Verdict.GOOD; // anything else means a connection was made (L4_OK)
        }
        if (Outcome.isConnectSignal(outcome)) {
            return Verdict.IGNORED;
        }
        if (Outcome.isLocal(outcome)) {
            return Verdict.ERROR; // read timeout, read error, close from server
        }
        return outcome < 500 || outcome == 501 || outcome == 505 ? Verdict.GOOD : Verdict.ERROR;
    }
}
