package dev.outlierlab.accesslog;

/**
 * Turns a line's upstream host, response code and response flags into what Envoy's outlier detector was told,
 * following Envoy v1.40's HTTP router ({@code source/common/router/router.cc} and {@code upstream_request.cc}):
 * <ul>
 * <li>{@code UpstreamRequest::onPoolReady} reports {@code LocalOriginConnectSuccess} whenever the pool hands over a
 *     stream; {@code onPoolFailure} instead "mimics an upstream reset" ({@code UF}), and
 *     {@code Filter::onUpstreamReset} reports {@code LocalOriginConnectFailed} with no code.</li>
 * <li>{@code Filter::onUpstreamHeaders} reports {@code putHttpResponseCode(code)} for the upstream's response.</li>
 * <li>{@code onPerTryTimeout} / {@code onResponseTimeout} report {@code LocalOriginTimeout} with the timeout
 *     response code (504 unless configured): {@code UT}. The per-try idle timeout does the same: {@code SI} with
 *     a host.</li>
 * <li>A reset after the stream was handed over ({@code UC}, {@code UR}, {@code LR}, {@code UPE}) goes through
 *     {@code onUpstreamReset} too: connect success, then connect failure.</li>
 * <li>{@code UMSDR} ({@code onStreamMaxDurationReached}) and a downstream disconnect ({@code DC}) before any
 *     response report nothing beyond the connect success.</li>
 * <li>Lines without an upstream host ({@code UH}, {@code NR}, {@code NC}, {@code RL}, {@code FI}, {@code UAEX},
 *     {@code UO} from the pool, ...) never reached a host's detector: skipped and counted.</li>
 * </ul>
 * With retries Envoy logs only the last attempt's host and outcome; earlier attempts are invisible here.
 */
public final class OutcomeMapping {
    private static final long RESET_FLAGS =
            ResponseFlag.UC.bit() | ResponseFlag.UR.bit() | ResponseFlag.LR.bit() | ResponseFlag.UPE.bit();

    private OutcomeMapping() {}

    /**
     * @param hasHost whether {@code %UPSTREAM_HOST%} names a host (not {@code -} or empty)
     * @param code {@code %RESPONSE_CODE%}, 0 when Envoy logged none
     * @param flags the {@link ResponseFlag} mask
     */
    public static LineOutcome map(boolean hasHost, int code, long flags) {
        if (!hasHost) {
            return LineOutcome.NO_UPSTREAM_HOST;
        }
        if (ResponseFlag.UF.in(flags)) {
            return LineOutcome.CONNECT_FAILED;
        }
        if (ResponseFlag.UT.in(flags) || ResponseFlag.SI.in(flags)) {
            return LineOutcome.TIMEOUT;
        }
        if (ResponseFlag.DC.in(flags)) {
            return code > 0 ? LineOutcome.RESPONSE : LineOutcome.CONNECTED_ONLY;
        }
        if ((flags & RESET_FLAGS) != 0) {
            return LineOutcome.RESET;
        }
        if (ResponseFlag.UMSDR.in(flags)) {
            return LineOutcome.CONNECTED_ONLY;
        }
        if (code <= 0) {
            return LineOutcome.NO_RESPONSE;
        }
        return LineOutcome.RESPONSE;
    }

    /** The code reported with a timeout: the logged one, or Envoy's default timeout response code 504. */
    public static int timeoutCode(int code) {
        return code > 0 ? code : 504;
    }
}
