package dev.outlierlab.tune.nginx;

import dev.outlierlab.check.CheckInputs;
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
import dev.outlierlab.tune.Setting;
import dev.outlierlab.tune.Target;
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
 * {@code base_ejection_time} and the listed 5xx in an enforced failure percentage of 1.
 */
public final class NginxTuneTarget implements Target {
    public static final NginxTuneTarget INSTANCE = new NginxTuneTarget();

    /** The 5xx conditions the search adds to or removes from {@code proxy_next_upstream}. */
    static final int HTTP_5XX =
            NextUpstream.HTTP_500 | NextUpstream.HTTP_502 | NextUpstream.HTTP_503 | NextUpstream.HTTP_504;

    private static final Pattern UPSTREAM = Pattern.compile("(?m)^\\s*upstream\\s+[^\\s{]+\\s*\\{");
    private static final Pattern HTTP = Pattern.compile("(?m)^\\s*http\\s*\\{");

    private NginxTuneTarget() {}

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
        return new Written(text, fields(read), 0, new NginxRun(read));
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
                c.name(), source, this, fields(c), 0, c.servers().size(), null, null, new NginxRun(c), null);
    }

    @Override
    public CurrentSettings defaults(String name, int hosts) {
        NginxUpstreamConfig c = NginxUpstreamConfig.of(upstreamName(name), addresses(Math.max(1, hosts)));
        return new CurrentSettings(name, null, this, fields(c), 0, null, null, null, new NginxRun(c), null);
    }

    @Override
    public String defaultsLabel() {
        return "nginx's defaults";
    }

    @Override
    public String ownSettingsHint() {
        return " (an nginx upstream's settings come from an nginx.conf, or nginx's defaults without --from)";
    }

    @Override
    public String engineLabel(EnvoyVersion version) {
        return "(nginx)";
    }

    @Override
    public String healthChecksNotRun() {
        return "open-source nginx has no active health check";
    }

    @Override
    public boolean placeholdersWithoutFile() {
        return true;
    }

    @Override
    public CheckInputs.Loaded check(String text) {
        return new CheckInputs.Loaded(List.of(), List.of());
    }

    /**
     * {@code max_fails} 1, 2, 3, 5 or 10; {@code fail_timeout} the current, 5 s, 10 s or 30 s; with or without
     * {@code http_500 http_502 http_503 http_504} in {@code proxy_next_upstream} (its other words kept).
     */
    @Override
    public List<Setting> candidates(TuneRequest req) {
        NginxUpstreamConfig now = ((NginxRun) req.currentProfile()).config();
        long currentTimeout = now.servers().get(0).failTimeoutSeconds();
        Set<Setting> out = new LinkedHashSet<>();
        for (int fails : new int[] {1, 2, 3, 5, 10}) {
            for (long seconds : new long[] {currentTimeout, 5, 10, 30}) {
                for (boolean with5xx : new boolean[] {true, false}) {
                    out.add(setting(fails, seconds, with5xx));
                }
            }
        }
        out.remove(req.currentSetting());
        return new ArrayList<>(out);
    }

    @Override
    public List<String> detectors(TuneRequest req) {
        NginxUpstreamConfig c = ((NginxRun) req.currentProfile()).config();
        NginxServer first = c.servers().get(0);
        return List.of("nginx takes a server out after max_fails=" + first.maxFails() + " failed attempts within "
                + "fail_timeout=" + first.failTimeoutSeconds() + "s, for " + first.failTimeoutSeconds() + "s"
                + (c.nextUpstream().lists(HTTP_5XX)
                        ? "; 5xx answers count (proxy_next_upstream lists them)"
                        : "; 5xx answers do not count (proxy_next_upstream does not list http_500 ... http_504)"));
    }

    @Override
    public List<String> changes(Setting a, Setting b, int hosts) {
        List<String> out = new ArrayList<>();
        if (a.consecutive5xx() != b.consecutive5xx()) {
            out.add("max_fails=" + b.consecutive5xx() + " (was " + a.consecutive5xx() + ")");
        }
        if (a.baseEjectionTimeNanos() != b.baseEjectionTimeNanos()) {
            out.add("fail_timeout=" + Durations.format(b.baseEjectionTimeNanos()) + " (was "
                    + Durations.format(a.baseEjectionTimeNanos()) + ")");
        }
        if (lists5xx(a) != lists5xx(b)) {
            out.add(
                    lists5xx(b)
                            ? "proxy_next_upstream lists http_500 http_502 http_503 http_504: 5xx answers count"
                            : "proxy_next_upstream without http_500 http_502 http_503 http_504: 5xx answers do not count");
        }
        return out;
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
        NginxServer first = now.servers().get(0);
        NginxServer wantFirst = want.servers().get(0);
        boolean sameFails = now.servers().stream().allMatch(s -> s.maxFails() == wantFirst.maxFails());
        boolean sameTimeout =
                now.servers().stream().allMatch(s -> s.failTimeoutSeconds() == wantFirst.failTimeoutSeconds());
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
                    + ";   # each server line of upstream " + now.name() + " (was max_fails=" + first.maxFails()
                    + " fail_timeout=" + first.failTimeoutSeconds() + "s)");
        }
        if (tuning.nextUpstream() != null) {
            patch.add("proxy_next_upstream "
                    + String.join(" ", want.nextUpstream().words()) + ";");
        }
        return new DeployableFile.Spliced(text, patch.isEmpty() ? null : String.join("\n", patch) + "\n", null);
    }

    /** E.g. {@code max_fails=3 fail_timeout=10s +5xx}: the three tuned values. */
    @Override
    public String label(Setting s) {
        return "max_fails=" + s.consecutive5xx() + " fail_timeout=" + s.baseEjectionTimeNanos() / Durations.SECOND
                + "s " + (lists5xx(s) ? "+5xx" : "-5xx");
    }

    @Override
    public String patchHeading() {
        return "Or only the changed directives:\n";
    }

    /** The settings as a search candidate. */
    static Setting setting(NginxUpstreamConfig c) {
        return Setting.of(fields(c));
    }

    private static Setting setting(int fails, long seconds, boolean with5xx) {
        return Setting.of(fields(fails, seconds, with5xx));
    }

    /** The upstream's three tuned values in the search's shared vocabulary. */
    static OutlierDetectionConfig fields(NginxUpstreamConfig c) {
        NginxServer first = c.servers().get(0);
        return fields(
                first.maxFails(), first.failTimeoutSeconds(), c.nextUpstream().lists(HTTP_5XX));
    }

    private static OutlierDetectionConfig fields(long fails, long seconds, boolean with5xx) {
        return OutlierDetectionConfig.defaults().toBuilder()
                .set(OutlierSetting.CONSECUTIVE_5XX, fails)
                .set(OutlierSetting.ENFORCING_CONSECUTIVE_5XX, fails > 0 ? 100 : 0)
                .set(OutlierSetting.BASE_EJECTION_TIME, seconds * Durations.SECOND)
                .set(OutlierSetting.FAILURE_PERCENTAGE_THRESHOLD, 1)
                .set(OutlierSetting.ENFORCING_FAILURE_PERCENTAGE, with5xx ? 100 : 0)
                .build();
    }

    private static boolean lists5xx(Setting s) {
        return s.failurePercentageThreshold() > 0;
    }

    /** {@code c} with the setting's three values, its other directives as they are. */
    static NginxUpstreamConfig apply(NginxUpstreamConfig c, Setting s) {
        List<NginxServer> servers = new ArrayList<>();
        for (NginxServer server : c.servers()) {
            servers.add(server.withMaxFails((int) s.consecutive5xx())
                    .withFailTimeoutSeconds(Math.max(1, s.baseEjectionTimeNanos() / Durations.SECOND)));
        }
        int mask = c.nextUpstream().mask();
        if (lists5xx(s)) {
            mask = (mask & ~NextUpstream.OFF) | HTTP_5XX;
        } else {
            mask &= ~HTTP_5XX;
            if (mask == 0) {
                mask = NextUpstream.OFF;
            }
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
