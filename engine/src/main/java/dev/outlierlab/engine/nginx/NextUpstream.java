package dev.outlierlab.engine.nginx;

import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code proxy_next_upstream} and {@code proxy_next_upstream_tries}: when nginx tries another server, and
 * which attempts count as a server's failure ({@code ngx_http_upstream_next} and
 * {@code ngx_http_upstream_test_next} in {@code src/http/ngx_http_upstream.c}, nginx 1.22):
 * <ul>
 * <li>an error (refused, reset) or a timeout always goes through {@code ngx_http_upstream_next}, which frees the
 * peer as failed whatever this directive lists; it is retried only if listed ({@code error} and
 * {@code timeout} are the default) and a try is left; otherwise the client gets 502 (error) or 504
 * (timeout);</li>
 * <li>a 500, 502, 503, 504 or 429 is a failure only when listed ({@code http_503} ...) <b>and</b> another try is
 * left ({@code u->peer.tries > 1}); then it is retried. Unlisted, or on the last try, the response goes to the
 * client and the peer is freed as a success;</li>
 * <li>a listed 403 or 404 with a try left is retried but frees the peer as {@code NGX_PEER_NEXT}, which the
 * round robin treats as a success.</li>
 * </ul>
 * {@code off} turns retries off (errors and timeouts still count). {@code non_idempotent},
 * {@code invalid_header}, {@code updating} and {@code proxy_next_upstream_timeout} are read but not modelled:
 * the lab's requests are GETs with no upstream caching.
 *
 * @param mask  the listed conditions, a bitmask of the constants below
 * @param tries {@code proxy_next_upstream_tries}; 0 (the default) is "as many as there are servers"
 */
public record NextUpstream(int mask, int tries) {
    public static final int ERROR = 1;
    public static final int TIMEOUT = 1 << 1;
    public static final int INVALID_HEADER = 1 << 2;
    public static final int HTTP_500 = 1 << 3;
    public static final int HTTP_502 = 1 << 4;
    public static final int HTTP_503 = 1 << 5;
    public static final int HTTP_504 = 1 << 6;
    public static final int HTTP_403 = 1 << 7;
    public static final int HTTP_404 = 1 << 8;
    public static final int HTTP_429 = 1 << 9;
    public static final int NON_IDEMPOTENT = 1 << 10;
    public static final int UPDATING = 1 << 11;
    public static final int OFF = 1 << 12;

    /** The words nginx accepts, in its order ({@code ngx_http_proxy_next_upstream_masks}). */
    private static final String[] WORDS = {
        "error",
        "timeout",
        "invalid_header",
        "http_500",
        "http_502",
        "http_503",
        "http_504",
        "http_403",
        "http_404",
        "http_429",
        "non_idempotent",
        "updating",
        "off"
    };

    /** How nginx frees the peer after an attempt ({@code ngx_http_upstream_free_round_robin_peer}'s state). */
    public enum PeerState {
        /** Freed with state 0 or {@code NGX_PEER_NEXT}: a success for the round robin. */
        OK,
        /** {@code NGX_PEER_FAILED}. */
        FAILED
    }

    public NextUpstream {
        if (tries < 0) {
            throw new InvalidConfigException(
                    "nginx.proxy_next_upstream_tries",
                    Integer.toString(tries),
                    "a whole number of 0 or more (0: as many as there are servers)");
        }
        if ((mask & OFF) != 0) {
            mask = OFF; // the proxy module's merge: "off" clears everything else
        }
    }

    /** nginx's default: {@code proxy_next_upstream error timeout}, {@code proxy_next_upstream_tries 0}. */
    public static NextUpstream defaults() {
        return new NextUpstream(ERROR | TIMEOUT, 0);
    }

    /** The mask for the words of a {@code proxy_next_upstream} directive, or throws naming the unknown word. */
    public static int parseWords(List<String> words) {
        int mask = 0;
        for (String w : words) {
            int bit = bitOf(w);
            if (bit == 0) {
                throw new InvalidConfigException(
                        "proxy_next_upstream",
                        "\"" + shortPrefix(w) + "\"",
                        "one or more of " + String.join(", ", WORDS));
            }
            mask |= bit;
        }
        return mask;
    }

    private static String shortPrefix(String w) {
        return w.length() > 40 ? w.substring(0, 40) + "..." : w;
    }

    private static int bitOf(String word) {
        String lower = word.toLowerCase(Locale.ROOT);
        for (int i = 0; i < WORDS.length; i++) {
            if (WORDS[i].equals(lower)) {
                return 1 << i;
            }
        }
        return 0;
    }

    /** The listed words in nginx's order, as a directive's arguments. */
    public List<String> words() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < WORDS.length; i++) {
            if ((mask & (1 << i)) != 0) {
                out.add(WORDS[i]);
            }
        }
        return out;
    }

    public boolean lists(int condition) {
        return (mask & condition) == condition && (mask & OFF) == 0;
    }

    /** The condition bit of a status nginx's status table knows, or 0 ({@code ngx_http_upstream_next_errors}). */
    static int statusCondition(int status) {
        return switch (status) {
            case 500 -> HTTP_500;
            case 502 -> HTTP_502;
            case 503 -> HTTP_503;
            case 504 -> HTTP_504;
            case 403 -> HTTP_403;
            case 404 -> HTTP_404;
            case 429 -> HTTP_429;
            default -> 0;
        };
    }

    /** The tries a request starts with: the servers not {@code down}, capped by {@code proxy_next_upstream_tries}. */
    public int initialTries(int serversUp) {
        return tries > 0 && serversUp > tries ? tries : serversUp;
    }

    /** How the peer is freed after {@code outcome} with {@code triesLeft} tries left (this one included). */
    public PeerState peerState(int outcome, int triesLeft) {
        if (Outcome.isLocal(outcome)) {
            return Outcome.isConnectSignal(outcome) ? PeerState.OK : PeerState.FAILED;
        }
        int condition = statusCondition(outcome);
        if (condition == 0 || condition == HTTP_403 || condition == HTTP_404) {
            return PeerState.OK;
        }
        return triesLeft > 1 && lists(condition) ? PeerState.FAILED : PeerState.OK;
    }

    /**
     * Whether nginx tries another server after {@code outcome} with {@code triesLeft} tries left before this
     * attempt: a status when listed with more than one try left; an error or timeout when listed and a try is
     * left after this one.
     */
    public boolean retries(int outcome, int triesLeft) {
        if (Outcome.isLocal(outcome)) {
            if (Outcome.isConnectSignal(outcome)) {
                return false;
            }
            int condition = outcome == Outcome.TIMEOUT ? TIMEOUT : ERROR;
            return triesLeft - 1 > 0 && lists(condition);
        }
        int condition = statusCondition(outcome);
        return condition != 0 && triesLeft > 1 && lists(condition);
    }

    /**
     * The status the client gets when nginx stops after {@code outcome}: the upstream's own status for a
     * response, 504 for a timeout, 502 for an error ({@code ngx_http_upstream_next}'s status switch).
     */
    public static int clientStatus(int outcome) {
        if (outcome == Outcome.TIMEOUT) {
            return 504;
        }
        return Outcome.isLocal(outcome) ? 502 : outcome;
    }
}
