package dev.outlierlab.live.httpclient;

import java.util.List;

/**
 * A request the {@link FailoverClient} refuses before sending anything: a method that is not an HTTP token, a
 * target that is not an absolute path (a path could otherwise name another host: {@code @169.254.169.254/})
 * or holds spaces, control characters or non-ASCII, a header the JDK client refuses, or a URI that would leave
 * the chosen upstream. The message names what was wrong, a short prefix of the value, and what is allowed;
 * nothing was recorded in the pool.
 */
public final class RejectedRequestException extends FailoverException {
    private static final long serialVersionUID = 1L;

    RejectedRequestException(String what, String value, String allowed) {
        super(what + " " + RequestTarget.shown(value) + " is not allowed; expected " + allowed, List.of(), null, null);
    }
}
