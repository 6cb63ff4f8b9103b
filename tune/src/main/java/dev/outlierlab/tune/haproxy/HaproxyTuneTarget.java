package dev.outlierlab.tune.haproxy;

import dev.outlierlab.config.haproxy.HaproxyConfigReader;
import dev.outlierlab.config.haproxy.HaproxyConfigWriter;
import dev.outlierlab.config.haproxy.HaproxySettings;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.engine.haproxy.HaproxyServer;
import dev.outlierlab.engine.haproxy.Observe;
import dev.outlierlab.engine.haproxy.OnError;
import dev.outlierlab.tune.CurrentSettings;
import dev.outlierlab.tune.DeployableFile;
import dev.outlierlab.tune.RunProfile;
import dev.outlierlab.tune.ServerTuneTarget;
import dev.outlierlab.tune.Setting;
import dev.outlierlab.tune.TuneRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A HAProxy backend's passive check: each server line's {@code observe layer7}, {@code error-limit} and
 * {@code on-error} ({@code src/check.c}, {@code check_notify_failure} and {@code srv_set_stopped}: consecutive errors
 * only; at the limit {@code fail-check} counts one failed check, {@code sudden-death} leaves one, {@code mark-down}
 * takes the server DOWN; only active checks bring it back, so {@code check} is on with them). Read with the lab's
 * HAProxy reader, run on the HAProxy simulation and written back by changing only those parameters
 * ({@link HaproxyConfigWriter}); the check timers ({@code inter}, {@code rise}, {@code fall}) are kept.
 *
 * <p>The search's shared vocabulary carries {@code error-limit} in {@code consecutive_5xx} (0: nothing observed) and
 * {@code on-error} in the failure percentage's threshold (its mode's place in {@link OnError}, from 1).
 */
public final class HaproxyTuneTarget extends ServerTuneTarget {
    public static final HaproxyTuneTarget INSTANCE = new HaproxyTuneTarget();

    private static final Pattern SECTION = Pattern.compile("(?m)^\\s*(backend|listen)\\s+\\S+");
    private static final Pattern SERVER = Pattern.compile("(?m)^\\s*server\\s+\\S+\\s+\\S+");

    private HaproxyTuneTarget() {
        super("HAProxy", "a HAProxy backend", "a haproxy.cfg");
    }

    @Override
    public String flag() {
        return "haproxy";
    }

    @Override
    public String description() {
        return "a HAProxy backend";
    }

    @Override
    public Set<Can> can() {
        return Set.of(Can.CONSECUTIVE, Can.TURN_OFF_CONSECUTIVE);
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
        List<HaproxyServer> now = current instanceof HaproxyRun r ? r.servers() : defaultServers(Math.max(1, hosts));
        String text = HaproxyFiles.cfg(backendName(name), apply(now, s));
        HaproxySettings read = HaproxyConfigReader.readText(text, "tune-haproxy.cfg", null);
        return new Written(text, fields(read.servers().get(0)), 0, new HaproxyRun(read.servers()));
    }

    @Override
    public CurrentSettings readOwn(String text, String source) {
        return readOwn(text, source, null);
    }

    /** A haproxy.cfg: a {@code backend} or {@code listen} section with {@code server} lines. */
    @Override
    public CurrentSettings readOwn(String text, String source, String backend) {
        if (!SECTION.matcher(text).find() || !SERVER.matcher(text).find() || text.contains("{")) {
            return null;
        }
        HaproxySettings read = HaproxyConfigReader.readText(text, source, backend);
        return new CurrentSettings(
                read.backend(),
                source,
                this,
                fields(read.servers().get(0)),
                0,
                read.servers().size(),
                null,
                null,
                new HaproxyRun(read.servers()),
                null);
    }

    @Override
    public CurrentSettings defaults(String name, int hosts) {
        List<HaproxyServer> servers = defaultServers(Math.max(1, hosts));
        return new CurrentSettings(
                name, null, this, fields(servers.get(0)), 0, null, null, null, new HaproxyRun(servers), null);
    }

    @Override
    public String healthChecksNotRun() {
        return "HAProxy's active checks run as the server lines say";
    }

    /** {@code error-limit} 1, 2, 3, 5 or 10 with {@code on-error} fail-check, sudden-death or mark-down; or none. */
    @Override
    public List<Setting> candidates(TuneRequest req) {
        Set<Setting> out = new LinkedHashSet<>();
        for (int limit : new int[] {1, 2, 3, 5, 10}) {
            for (OnError action : new OnError[] {OnError.FAIL_CHECK, OnError.SUDDEN_DEATH, OnError.MARK_DOWN}) {
                out.add(Setting.of(fields(limit, action)));
            }
        }
        out.add(Setting.of(fields(0, OnError.FAIL_CHECK)));
        out.remove(req.currentSetting());
        return new ArrayList<>(out);
    }

    @Override
    public String label(Setting s) {
        return s.consecutive5xx() == 0
                ? "observe none"
                : "observe layer7 error-limit " + s.consecutive5xx() + " on-error "
                        + onError(s).word();
    }

    @Override
    public List<String> detectors(TuneRequest req) {
        return List.of("HAProxy: " + label(req.currentSetting()) + " (consecutive errors; active checks bring a server "
                + "back)");
    }

    @Override
    public List<String> changes(Setting a, Setting b, int hosts) {
        return List.of(label(b) + " (was " + label(a) + ")");
    }

    /**
     * The user's haproxy.cfg with only the tuned parameters of the backend's server lines changed
     * ({@code check}, {@code observe}, {@code error-limit}, {@code on-error}); a parameter whose value does not change
     * is left as written.
     */
    @Override
    public DeployableFile.Spliced splice(
            String original,
            OutlierDetectionConfig currentConfig,
            Setting recommended,
            Written written,
            EnvoyVersion version,
            String cluster) {
        HaproxySettings read = HaproxyConfigReader.readText(original, "haproxy.cfg", cluster);
        HaproxyServer want = ((HaproxyRun) written.profile()).servers().get(0);
        Map<String, String> params = new LinkedHashMap<>();
        if (want.check() && read.servers().stream().anyMatch(s -> !s.check())) {
            params.put("check", "");
        }
        if (read.servers().stream().anyMatch(s -> s.observe() != want.observe())) {
            params.put("observe", want.observe().word());
        }
        if (want.observe() != Observe.NONE) {
            if (read.servers().stream().anyMatch(s -> s.errorLimit() != want.errorLimit())) {
                params.put("error-limit", Integer.toString(want.errorLimit()));
            }
            if (read.servers().stream().anyMatch(s -> s.onError() != want.onError())) {
                params.put("on-error", want.onError().word());
            }
        }
        String text = params.isEmpty() ? original : HaproxyConfigWriter.write(read, params);
        StringBuilder patch = new StringBuilder();
        params.forEach(
                (k, v) -> patch.append(k).append(v.isEmpty() ? "" : " " + v).append(' '));
        return new DeployableFile.Spliced(
                text,
                params.isEmpty()
                        ? null
                        : "server NAME ADDRESS ... " + patch.toString().strip() + "   # each server line of backend "
                                + read.backend() + "\n",
                null);
    }

    /**
     * The server lines' tuned parameters as the written file has them, in haproxy.cfg's keywords: {@code check},
     * {@code observe} and, when something is observed, {@code error-limit} and {@code on-error} (the first server
     * line's; the search writes every line alike and the simulation runs the first line's on every server).
     */
    @Override
    public Map<String, Object> fields(Setting s, Written written) {
        HaproxyServer first = written.profile() instanceof HaproxyRun r
                ? r.servers().get(0)
                : apply(defaultServers(1), s).get(0);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("check", first.check());
        m.put("observe", first.observe().word());
        if (first.observe() != Observe.NONE) {
            m.put("error-limit", first.errorLimit());
            m.put("on-error", first.onError().word());
        }
        return m;
    }

    @Override
    public String patchHeading() {
        return "Or only the changed parameters:\n";
    }

    static Setting setting(HaproxyServer s) {
        return Setting.of(fields(s));
    }

    private static OutlierDetectionConfig fields(HaproxyServer s) {
        return fields(s.observe() == Observe.NONE ? 0 : s.errorLimit(), s.onError());
    }

    private static OutlierDetectionConfig fields(long limit, OnError action) {
        return OutlierDetectionConfig.defaults().toBuilder()
                .set(OutlierSetting.CONSECUTIVE_5XX, Math.max(1, limit))
                .set(OutlierSetting.ENFORCING_CONSECUTIVE_5XX, limit > 0 ? 100 : 0)
                .set(OutlierSetting.FAILURE_PERCENTAGE_THRESHOLD, action.ordinal() + 1)
                .set(OutlierSetting.ENFORCING_FAILURE_PERCENTAGE, 100)
                .build();
    }

    private static OnError onError(Setting s) {
        return OnError.values()[
                (int) Math.max(0, Math.min(OnError.values().length - 1, s.failurePercentageThreshold() - 1))];
    }

    /** The servers with the setting: observe layer7 and check on, or nothing observed; timers as they are. */
    static List<HaproxyServer> apply(List<HaproxyServer> servers, Setting s) {
        List<HaproxyServer> out = new ArrayList<>();
        for (HaproxyServer server : servers) {
            out.add(
                    s.consecutive5xx() == 0
                            ? server.observing(Observe.NONE, server.errorLimit(), server.onError())
                            : server.withCheck(true).observing(Observe.LAYER7, (int) s.consecutive5xx(), onError(s)));
        }
        return out;
    }

    private static List<HaproxyServer> defaultServers(int hosts) {
        List<HaproxyServer> out = new ArrayList<>();
        for (int h = 0; h < hosts; h++) {
            out.add(HaproxyServer.checked("s" + (h + 1), "127.0.0.1:" + (8081 + h)));
        }
        return out;
    }

    private static String backendName(String name) {
        return name == null || !name.matches("[A-Za-z0-9_.-]{1,64}") ? "be" : name;
    }

    @Override
    public String toString() {
        return flag();
    }
}
