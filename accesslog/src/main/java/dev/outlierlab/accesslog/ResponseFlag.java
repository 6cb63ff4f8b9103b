package dev.outlierlab.accesslog;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * Envoy's response flags as {@code %RESPONSE_FLAGS%} writes them: the short names of
 * {@code ResponseFlagUtils::ALL_RESPONSE_STRINGS_FLAGS} ({@code source/common/stream_info/utility.h}), joined by
 * commas, or {@code -} for none. Each flag is one bit of a {@code long} mask, so a line's flags parse without
 * allocating.
 */
public enum ResponseFlag {
    LH("FailedLocalHealthCheck"),
    UH("NoHealthyUpstream"),
    UT("UpstreamRequestTimeout"),
    LR("LocalReset"),
    UR("UpstreamRemoteReset"),
    UF("UpstreamConnectionFailure"),
    UC("UpstreamConnectionTermination"),
    UO("UpstreamOverflow"),
    NR("NoRouteFound"),
    DI("DelayInjected"),
    FI("FaultInjected"),
    RL("RateLimited"),
    UAEX("UnauthorizedExternalService"),
    RLSE("RateLimitServiceError"),
    DC("DownstreamConnectionTermination"),
    URX("UpstreamRetryLimitExceeded"),
    SI("StreamIdleTimeout"),
    IH("InvalidEnvoyRequestHeaders"),
    DPE("DownstreamProtocolError"),
    UMSDR("UpstreamMaxStreamDurationReached"),
    RFCF("ResponseFromCacheFilter"),
    NFCF("NoFilterConfigFound"),
    DT("DurationTimeout"),
    UPE("UpstreamProtocolError"),
    NC("NoClusterFound"),
    OM("OverloadManagerTerminated"),
    DF("DnsResolutionFailed"),
    DO("DropOverload"),
    DR("DownstreamRemoteReset"),
    UDO("UnconditionalDropOverload");

    private static final Map<String, ResponseFlag> BY_NAME = new HashMap<>();

    static {
        for (ResponseFlag f : values()) {
            BY_NAME.put(f.name(), f);
            BY_NAME.put(f.longName, f);
        }
    }

    private final String longName;

    ResponseFlag(String longName) {
        this.longName = longName;
    }

    /** Envoy's long (PascalCase) name, as {@code %RESPONSE_FLAGS_LONG%} writes it. */
    public String longName() {
        return longName;
    }

    public long bit() {
        return 1L << ordinal();
    }

    public boolean in(long mask) {
        return (mask & bit()) != 0;
    }

    /**
     * The flags of {@code b[start, end)}: {@code -}, empty, or short (or long) names separated by commas. Names
     * Envoy does not define (custom flags of extensions) are ignored.
     */
    public static long parse(byte[] b, int start, int end) {
        if (end - start == 1 && b[start] == '-' || end <= start) {
            return 0;
        }
        long mask = 0;
        int s = start;
        for (int i = start; i <= end; i++) {
            if (i == end || b[i] == ',') {
                ResponseFlag f = lookup(b, s, i);
                if (f != null) {
                    mask |= f.bit();
                }
                s = i + 1;
            }
        }
        return mask;
    }

    private static ResponseFlag lookup(byte[] b, int s, int e) {
        int n = e - s;
        if (n == 2) {
            return switch (b[s] << 8 | b[s + 1]) {
                case 'U' << 8 | 'F' -> UF;
                case 'U' << 8 | 'T' -> UT;
                case 'U' << 8 | 'H' -> UH;
                case 'U' << 8 | 'O' -> UO;
                case 'U' << 8 | 'C' -> UC;
                case 'U' << 8 | 'R' -> UR;
                case 'L' << 8 | 'R' -> LR;
                case 'N' << 8 | 'R' -> NR;
                case 'D' << 8 | 'C' -> DC;
                default -> BY_NAME.get(new String(b, s, n, StandardCharsets.ISO_8859_1));
            };
        }
        return BY_NAME.get(new String(b, s, n, StandardCharsets.ISO_8859_1));
    }

    /** The short names in {@code mask}, comma-separated as Envoy writes them, or {@code -}. */
    public static String format(long mask) {
        if (mask == 0) {
            return "-";
        }
        StringBuilder sb = new StringBuilder();
        for (ResponseFlag f : values()) {
            if (f.in(mask)) {
                sb.append(sb.length() == 0 ? "" : ",").append(f.name());
            }
        }
        return sb.toString();
    }
}
