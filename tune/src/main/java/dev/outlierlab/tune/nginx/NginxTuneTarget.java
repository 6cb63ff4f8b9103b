package dev.outlierlab.tune.nginx;

import dev.outlierlab.config.nginx.NginxConfWriter;
import dev.outlierlab.config.nginx.NginxSettings;
import dev.outlierlab.config.nginx.NginxUpstreamReader;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.engine.nginx.NextUpstream;
import dev.outlierlab.engine.nginx.NginxServer;
import dev.outlierlab.engine.nginx.NginxUpstreamConfig;
import dev.outlierlab.tune.CurrentSettings;
import dev.outlierlab.tune.DeployableFile;
import dev.outlierlab.tune.RunProfile;
import dev.outlierlab.tune.ServerTuneTarget;
import dev.outlierlab.tune.Setting;
import dev.outlierlab.tune.TuneRequest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * An nginx upstream: its servers' {@code max_fails} and {@code fail_timeout} and whether the
 * {@code proxy_next_upstream} where it is used lists {@code http_500 http_502 http_503 http_504} (nginx counts a 5xx
 * answer against {@code max_fails} only when it is listed: {@code ngx_http_upstream_next} in
 * src/http/ngx_http_upstream.c marks the peer failed with {@code NGX_PEER_FAILED} for the listed conditions). Read
 * with the lab's nginx reader, run on the nginx simulation, and written back into the user's file by changing only
 * those directives ({@link NginxConfWriter}).
 *
 * <p>The search's shared vocabulary carries {@code max_fails} in {@code consecutive_5xx}, {@code fail_timeout} in
 * {@code base_ejection_time} and the listed 5xx in an enforced failure percentage threshold: 1 for all four, 2 for
 * {@code http_502 http_503 http_504} alone.
 */
public final class NginxTuneTarget extends ServerTuneTarget {
    public static final NginxTuneTarget INSTANCE = new NginxTuneTarget();

    /** The 5xx conditions the search adds to or removes from {@code proxy_next_upstream}. */
    static final int HTTP_5XX =
            NextUpstream.HTTP_500 | NextUpstream.HTTP_502 | NextUpstream.HTTP_503 | NextUpstream.HTTP_504;
    /**
     * {@code http_502 http_503 http_504}: what a server that is down or overloaded answers through nginx, without the
     * 500 an application gives a bad request on every server alike.
     */
    static final int HTTP_GATEWAY = NextUpstream.HTTP_502 | NextUpstream.HTTP_503 | NextUpstream.HTTP_504;
    /** Which 5xx a candidate lists: none, all four, or {@link #HTTP_GATEWAY}. */
    static final int LISTS_NONE = 0;

    static final int LISTS_ALL = 1;
    static final int LISTS_GATEWAY = 2;

    private static final Pattern UPSTREAM = Pattern.compile("(?m)^\\s*upstream\\s+[^\\s{]+\\s*\\{");
    private static final Pattern HTTP = Pattern.compile("(?m)^\\s*http\\s*\\{");

    private NginxTuneTarget() {
        super("nginx", "an nginx upstream", "an nginx.conf");
    }

    @Override
    public String flag() {
        return "nginx";
    }

    @Override
    public String description() {
        return "an nginx upstream";
    }

    @Override
    public Set<Can> can() {
        return Set.of(Can.CONSECUTIVE);
    }

    @Override
    public Written write(
            Setting s,
            String name,
            int hosts,
            OutlierDetectionConfig base,
            double panicThresholdPercent,
            RunProfile current,
            EnvoyVersion version) {
        NginxUpstreamConfig now = current instanceof NginxRun r
                ? r.config()
                : NginxUpstreamConfig.of(upstreamName(name), addresses(hosts));
        String text = NginxFiles.conf(apply(now, s));
        NginxUpstreamConfig read =
                NginxUpstreamReader.readText(text, "tune-nginx.conf", null).config();
        // the user's proxy_read_timeout is not a tuned value: every candidate waits what the current file waits
        long readTimeout =
                current instanceof NginxRun r ? r.readTimeoutNanos() : NginxUpstreamReader.DEFAULT_READ_TIMEOUT_NANOS;
        return new Written(text, fields(read), 0, new NginxRun(read, readTimeout));
    }

    /** A file with an {@code http} block and an {@code upstream} block in it. */
    @Override
    public CurrentSettings readOwn(String text, String source) {
        return readOwn(text, source, null);
    }

    @Override
    public CurrentSettings readOwn(String text, String source, String upstream) {
        if (!UPSTREAM.matcher(text).find() || !HTTP.matcher(text).find()) {
            return null;
        }
        NginxSettings read = NginxUpstreamReader.readText(text, source, upstream);
        NginxUpstreamConfig c = read.config();
        return new CurrentSettings(
                c.name(),
                source,
                this,
                fields(c),
                0,
                c.servers().size(),
                null,
                null,
                new NginxRun(c, read.readTimeoutNanos()),
                null);
    }

    @Override
    public CurrentSettings defaults(String name, int hosts) {
        NginxUpstreamConfig c = NginxUpstreamConfig.of(upstreamName(name), addresses(Math.max(1, hosts)));
        return new CurrentSettings(name, null, this, fields(c), 0, null, null, null, new NginxRun(c), null);
    }

    /**
     * nginx counts a listed 5xx it retries against {@code max_fails} as it counts a refused connection:
     * {@code ngx_http_upstream_next} (src/http/ngx_http_upstream.c) frees the server with {@code NGX_PEER_FAILED} for
     * every condition but 403 and 404, and {@code ngx_http_upstream_test_next} calls it for a status only when
     * {@code proxy_next_upstream} lists it. A {@code backup} server changes only where requests go once every primary
     * server is out ({@code ngx_http_upstream_get_round_robin_peer}), not when one is taken out.
     */
    @Override
    public String deadHostTradeOff() {
        return "nginx counts a 5xx it retries on the next server (listed in proxy_next_upstream) against max_fails as it"
                + " counts a refused connection, so a max_fails that takes this server out in time also takes healthy"
                + " servers out when a shared dependency fails, and without 5xx listed a failing server's 5xx are"
                + " neither retried nor counted";
    }

    @Override
    public String healthChecksNotRun() {
        return "open-source nginx has no active health check";
    }

    /**
     * {@code max_fails} 1, 2, 3, 5, 10 or 20, or 0 (no server ever taken out) with {@code http_502 http_503 http_504}
     * listed, so retried;
     * {@code fail_timeout} the current, 1 s, 2 s, 10 s or 30 s;
     * {@code proxy_next_upstream} (its other words kept) listing {@code http_500 http_502 http_503 http_504}, only
     * {@code http_502 http_503 http_504} (a bad request's 500, the same on every server, then neither counts nor is
     * retried), or none of them. The
     * short timeouts matter in nginx: its count of failures is forgotten only after a pause of {@code fail_timeout}
     * without one (see {@link #detectors}), so with background noise only a short {@code fail_timeout} with a larger
     * {@code max_fails} keeps healthy servers in.
     */
    @Override
    public List<Setting> candidates(TuneRequest req) {
        NginxUpstreamConfig now = ((NginxRun) req.currentProfile()).config();
        long currentTimeout = now.servers().get(0).failTimeoutSeconds();
        Set<Setting> out = new LinkedHashSet<>();
        for (int fails : new int[] {1, 2, 3, 5, 10, 20}) {
            for (long seconds : new long[] {currentTimeout, 1, 2, 10, 30}) {
                for (int listing : new int[] {LISTS_ALL, LISTS_GATEWAY, LISTS_NONE}) {
                    out.add(setting(fails, seconds, listing));
                }
            }
        }
        // no server taken out, a server's 502, 503 and 504 retried on the next one: what is left when every max_fails
        // that counts 5xx takes every server out in a shared outage (and nginx then answers 502 to every request). Not
        // with http_500: a bad request's 500 comes from every server alike, so retrying it only multiplies it (the
        // lab draws each try's failure on its own, so there a retried bad request would pass)
        out.add(setting(0, currentTimeout, LISTS_GATEWAY));
        out.remove(req.currentSetting());
        return new ArrayList<>(out);
    }

    /**
     * What nginx does with the current values, in its own terms, and why noise takes servers out: a success clears
     * the count only when the server was chosen more than {@code fail_timeout} after its last failure
     * ({@code ngx_http_upstream_free_round_robin_peer} clears {@code fails} when {@code accessed < checked}, and
     * {@code ngx_http_upstream_get_peer} moves {@code checked} only after {@code fail_timeout}), so failures that never
     * pause that long add up without end.
     */
    @Override
    public List<String> detectors(TuneRequest req) {
        NginxUpstreamConfig c = ((NginxRun) req.currentProfile()).config();
        String timeout = NginxWords.failTimeouts(c);
        List<String> out = new ArrayList<>();
        out.add("nginx takes a server out after max_fails=" + NginxWords.maxFails(c) + " failed attempts within "
                + "fail_timeout=" + timeout + ", for " + timeout
                + (NginxWords.listedWords(c.nextUpstream()).isEmpty()
                        ? "; 5xx answers do not count (proxy_next_upstream lists none of http_500 http_502 http_503"
                                + " http_504)"
                        : "; " + String.join(" ", NginxWords.listedWords(c.nextUpstream()))
                                + " answers count (proxy_next_upstream lists them)"));
        out.add("nginx forgets a server's failures only after fail_timeout passes without one: failures that come "
                + "more often than once per fail_timeout (a noisy but healthy server) add up without end, so every "
                + "max_fails-th of them takes the server out, and when every server is out clients get 502 (no live "
                + "upstreams); a short fail_timeout (1s or 2s) with a larger max_fails lets such noise be forgotten");
        if (c.workers() > 1 && !c.zone()) {
            out.add("worker_processes " + c.workers() + " without zone: each worker counts its own failures and takes"
                    + " servers out on its own, so a false ejection counts once per worker");
        }
        return out;
    }

    /**
     * The changes in nginx's words; from the current settings, "was" gives each server's value when they differ
     * (e.g. {@code max_fails=10 (was 1/3/3)}).
     */
    @Override
    public List<String> changes(Setting a, Setting b, TuneRequest req) {
        NginxUpstreamConfig now = ((NginxRun) req.currentProfile()).config();
        return a.equals(req.currentSetting())
                ? NginxWords.changes(
                        NginxWords.maxFails(now),
                        NginxWords.failTimeouts(now),
                        NginxWords.listedLabel(now.nextUpstream()),
                        b)
                : changes(a, b, req.hosts());
    }

    @Override
    public List<String> changes(Setting a, Setting b, int hosts) {
        return NginxWords.changes(
                Long.toString(a.consecutive5xx()),
                a.baseEjectionTimeNanos() / Durations.SECOND + "s",
                NginxWords.listingLabel(listing(a)),
                b);
    }

    /**
     * The user's nginx.conf with only the tuned directives changed: the server lines' {@code max_fails=} and
     * {@code fail_timeout=} (added when absent) and the {@code proxy_next_upstream} in effect (added to the location
     * when absent); a directive whose value does not change is left as written.
     */
    @Override
    public DeployableFile.Spliced splice(
            String original,
            OutlierDetectionConfig currentConfig,
            Setting recommended,
            Written written,
            EnvoyVersion version,
            String cluster) {
        NginxSettings read = NginxUpstreamReader.readText(original, "nginx.conf", cluster);
        NginxUpstreamConfig now = read.config();
        NginxUpstreamConfig want = ((NginxRun) written.profile()).config();
        NginxServer wantFirst = want.servers().get(0);
        // the current settings kept as written (servers whose values differ included) change nothing
        boolean sameFails = now.servers().stream().allMatch(s -> s.maxFails() == wantFirst.maxFails())
                || maxFailsOf(now).equals(maxFailsOf(want));
        boolean sameTimeout =
                now.servers().stream().allMatch(s -> s.failTimeoutSeconds() == wantFirst.failTimeoutSeconds())
                        || failTimeoutsOf(now).equals(failTimeoutsOf(want));
        NginxConfWriter.Tuning tuning = new NginxConfWriter.Tuning(
                sameFails ? null : wantFirst.maxFails(),
                sameTimeout ? null : wantFirst.failTimeoutSeconds(),
                now.nextUpstream().mask() == want.nextUpstream().mask() ? null : want.nextUpstream(),
                false);
        Map<Path, String> files = NginxConfWriter.write(read, tuning);
        String text = files.isEmpty() ? original : files.values().iterator().next();
        List<String> patch = new ArrayList<>();
        if (tuning.maxFails() != null || tuning.failTimeoutSeconds() != null) {
            patch.add("server ADDRESS" + (tuning.maxFails() == null ? "" : " max_fails=" + wantFirst.maxFails())
                    + (tuning.failTimeoutSeconds() == null
                            ? ""
                            : " fail_timeout=" + wantFirst.failTimeoutSeconds() + "s")
                    + ";   # each server line of upstream " + now.name() + " (was max_fails=" + NginxWords.maxFails(now)
                    + " fail_timeout=" + NginxWords.failTimeouts(now) + ")");
        }
        if (tuning.nextUpstream() != null) {
            patch.add("proxy_next_upstream "
                    + String.join(" ", want.nextUpstream().words()) + ";");
        }
        return new DeployableFile.Spliced(text, patch.isEmpty() ? null : String.join("\n", patch) + "\n", null);
    }

    private static List<Integer> maxFailsOf(NginxUpstreamConfig c) {
        return c.servers().stream().map(NginxServer::maxFails).toList();
    }

    private static List<Long> failTimeoutsOf(NginxUpstreamConfig c) {
        return c.servers().stream().map(NginxServer::failTimeoutSeconds).toList();
    }

    /** E.g. {@code max_fails=3 fail_timeout=10s +5xx}: the three tuned values. */
    @Override
    public String label(Setting s) {
        return "max_fails=" + s.consecutive5xx() + " fail_timeout=" + s.baseEjectionTimeNanos() / Durations.SECOND
                + "s " + NginxWords.listingLabel(listing(s));
    }

    /**
     * The upstream's values as its server lines have them: one value when every server has it, else each server's
     * in order, e.g. {@code max_fails=1/3/3 fail_timeout=10s -5xx}.
     */
    @Override
    public String label(Setting s, RunProfile profile) {
        if (!(profile instanceof NginxRun r)) {
            return label(s);
        }
        NginxUpstreamConfig c = r.config();
        return "max_fails=" + NginxWords.maxFails(c) + " fail_timeout=" + NginxWords.failTimeouts(c) + " "
                + NginxWords.listedLabel(c.nextUpstream());
    }

    @Override
    public String patchHeading() {
        return "Or only the changed directives:\n";
    }

    /** The settings as a search candidate. */
    static Setting setting(NginxUpstreamConfig c) {
        return Setting.of(fields(c));
    }

    private static Setting setting(int fails, long seconds, int listing) {
        return Setting.of(fields(fails, seconds, listing));
    }

    /** The upstream's three tuned values in the search's shared vocabulary. */
    static OutlierDetectionConfig fields(NginxUpstreamConfig c) {
        NginxServer first = c.servers().get(0);
        return fields(first.maxFails(), first.failTimeoutSeconds(), listing(c.nextUpstream()));
    }

    private static OutlierDetectionConfig fields(long fails, long seconds, int listing) {
        return OutlierDetectionConfig.defaults().toBuilder()
                .set(OutlierSetting.CONSECUTIVE_5XX, fails)
                .set(OutlierSetting.ENFORCING_CONSECUTIVE_5XX, fails > 0 ? 100 : 0)
                .set(OutlierSetting.BASE_EJECTION_TIME, seconds * Durations.SECOND)
                .set(OutlierSetting.FAILURE_PERCENTAGE_THRESHOLD, Math.max(1, listing))
                .set(OutlierSetting.ENFORCING_FAILURE_PERCENTAGE, listing != LISTS_NONE ? 100 : 0)
                .build();
    }

    /** A candidate's 5xx ({@link #LISTS_NONE}, {@link #LISTS_ALL} or {@link #LISTS_GATEWAY}). */
    static int listing(Setting s) {
        return (int) Math.min(LISTS_GATEWAY, s.failurePercentageThreshold());
    }

    /** What a file's {@code proxy_next_upstream} lists, as a candidate's: all four, the three, or less. */
    static int listing(NextUpstream n) {
        return n.lists(HTTP_5XX) ? LISTS_ALL : n.lists(HTTP_GATEWAY) ? LISTS_GATEWAY : LISTS_NONE;
    }

    /** {@code c} with the setting's three values, its other directives as they are. */
    static NginxUpstreamConfig apply(NginxUpstreamConfig c, Setting s) {
        List<NginxServer> servers = new ArrayList<>();
        for (NginxServer server : c.servers()) {
            servers.add(server.withMaxFails((int) s.consecutive5xx())
                    .withFailTimeoutSeconds(Math.max(1, s.baseEjectionTimeNanos() / Durations.SECOND)));
        }
        int mask = c.nextUpstream().mask() & ~HTTP_5XX;
        int listing = listing(s);
        if (listing != LISTS_NONE) {
            mask = (mask & ~NextUpstream.OFF) | (listing == LISTS_ALL ? HTTP_5XX : HTTP_GATEWAY);
        } else if (mask == 0) {
            mask = NextUpstream.OFF;
        }
        return c.withServers(servers)
                .withNextUpstream(new NextUpstream(mask, c.nextUpstream().tries()));
    }

    private static String upstreamName(String name) {
        return name == null || !name.matches("[A-Za-z0-9_.-]{1,64}") ? "backend" : name;
    }

    private static List<String> addresses(int hosts) {
        List<String> out = new ArrayList<>();
        for (int h = 0; h < hosts; h++) {
            out.add("127.0.0.1:" + (8081 + h));
        }
        return out;
    }

    @Override
    public String toString() {
        return flag();
    }
}
