package dev.outlierlab.tune.nginx;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.nginx.NextUpstream;
import dev.outlierlab.engine.nginx.NginxUpstreamConfig;
import dev.outlierlab.tune.Setting;
import java.util.ArrayList;
import java.util.List;

/**
 * nginx's words for the tuned values: {@code max_fails} and {@code fail_timeout} as the server lines have them (one
 * value, or each server's when they differ), and what {@code proxy_next_upstream} lists of the four 5xx conditions.
 */
final class NginxWords {
    private static final String[] WORDS_5XX = {"http_500", "http_502", "http_503", "http_504"};
    private static final int[] BITS_5XX = {
        NextUpstream.HTTP_500, NextUpstream.HTTP_502, NextUpstream.HTTP_503, NextUpstream.HTTP_504
    };

    private NginxWords() {}

    /** The changes from the values a candidate was (in words) to {@code b}, in nginx's words. */
    static List<String> changes(String wasFails, String wasTimeout, String wasListing, Setting b) {
        List<String> out = new ArrayList<>();
        String fails = Long.toString(b.consecutive5xx());
        boolean never = b.consecutive5xx() == 0;
        if (!wasFails.equals(fails)) {
            out.add("max_fails=" + fails + " (was " + wasFails + ")"
                    + (never
                            ? ": nginx never takes a server out, so it never answers 502 for want of one; a server"
                                    + " that refuses connections or times out is never taken out either and still"
                                    + " gets its share of first tries, each retried on the next server: a refused"
                                    + " connection at once (nothing fails, nothing waits), a timed-out one after"
                                    + " proxy_read_timeout (60s by default), which its caller waits"
                            : ""));
        }
        String timeout = b.baseEjectionTimeNanos() / Durations.SECOND + "s";
        if (!wasTimeout.equals(timeout) && !never) {
            out.add("fail_timeout=" + timeout + " (was " + wasTimeout + ")");
        }
        if (!wasListing.equals(listingLabel(NginxTuneTarget.listing(b)))) {
            out.add(
                    switch (NginxTuneTarget.listing(b)) {
                        case NginxTuneTarget.LISTS_ALL ->
                            never
                                    ? "proxy_next_upstream lists http_500 http_502 http_503 http_504: a 5xx answer is"
                                            + " retried on the next server"
                                    : "proxy_next_upstream lists http_500 http_502 http_503 http_504: 5xx answers"
                                            + " count";
                        case NginxTuneTarget.LISTS_GATEWAY ->
                            never
                                    ? "proxy_next_upstream lists http_502 http_503 http_504 but not http_500: a"
                                            + " server's 502, 503 and 504 are retried on the next server, a bad"
                                            + " request's 500 is not"
                                    : "proxy_next_upstream lists http_502 http_503 http_504 but not http_500:"
                                            + " a server's 502, 503 and 504 count, a bad request's 500 does not";
                        default ->
                            "proxy_next_upstream without http_500 http_502 http_503 http_504: 5xx answers do"
                                    + " not count";
                    });
        }
        return out;
    }

    /** The servers' {@code max_fails}: one value when they agree, else each server's, e.g. {@code 1/3/3}. */
    static String maxFails(NginxUpstreamConfig c) {
        return perServer(
                c.servers().stream().map(s -> Integer.toString(s.maxFails())).toList());
    }

    /** The servers' {@code fail_timeout} in seconds: {@code 10s}, or each server's, e.g. {@code 5s/10s/10s}. */
    static String failTimeouts(NginxUpstreamConfig c) {
        return perServer(
                c.servers().stream().map(s -> s.failTimeoutSeconds() + "s").toList());
    }

    /** A candidate's 5xx: {@code +5xx} (all four), {@code +502/503/504} or {@code -5xx}. */
    static String listingLabel(int listing) {
        return switch (listing) {
            case NginxTuneTarget.LISTS_ALL -> "+5xx";
            case NginxTuneTarget.LISTS_GATEWAY -> "+502/503/504";
            default -> "-5xx";
        };
    }

    /** What a file's {@code proxy_next_upstream} lists of the four: {@code +5xx}, {@code +502}, ..., {@code -5xx}. */
    static String listedLabel(NextUpstream n) {
        if (n.lists(NginxTuneTarget.HTTP_5XX)) {
            return "+5xx";
        }
        List<String> words = listedWords(n);
        return words.isEmpty()
                ? "-5xx"
                : "+" + String.join("/", words.stream().map(w -> w.substring(5)).toList());
    }

    /** The words of {@code http_500 http_502 http_503 http_504} that {@code proxy_next_upstream} lists. */
    static List<String> listedWords(NextUpstream n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < WORDS_5XX.length; i++) {
            if (n.lists(BITS_5XX[i])) {
                out.add(WORDS_5XX[i]);
            }
        }
        return out;
    }

    private static String perServer(List<String> values) {
        return values.stream().distinct().count() == 1 ? values.get(0) : String.join("/", values);
    }
}
