package dev.outlierlab.tune.caddy;

import dev.outlierlab.config.caddy.CaddyConfigReader;
import dev.outlierlab.config.caddy.CaddyJsonWriter;
import dev.outlierlab.config.caddy.CaddySettings;
import dev.outlierlab.config.caddy.CaddyfileWriter;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.caddy.CaddyPassiveConfig;
import dev.outlierlab.engine.caddy.CaddySelection;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.sim.scenario.FaultResult;
import dev.outlierlab.tune.CurrentSettings;
import dev.outlierlab.tune.DeployableFile;
import dev.outlierlab.tune.RunProfile;
import dev.outlierlab.tune.ServerTuneTarget;
import dev.outlierlab.tune.Setting;
import dev.outlierlab.tune.SuiteScenario;
import dev.outlierlab.tune.TuneRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A Caddyfile's {@code reverse_proxy} passive health checks ({@code modules/caddyhttp/reverseproxy}: {@code countFailure}
 * remembers each failure for {@code fail_duration}; {@code healthy} is false while {@code max_fails} are
 * remembered; a response counts only when {@code unhealthy_status} lists its status). The search varies
 * {@code max_fails}, {@code fail_duration} and whether {@code unhealthy_status} lists {@code 5xx} (added to the
 * user's entries; a list that has it keeps it); read with the lab's Caddy reader, run on the Caddy simulation and
 * written back by changing only those subdirectives ({@link CaddyfileWriter}).
 *
 * <p>The search's shared vocabulary carries {@code max_fails} in {@code consecutive_5xx} (0: no passive check),
 * {@code fail_duration} in {@code base_ejection_time} and a listed 5xx in an enforced failure percentage of 1.
 */
public final class CaddyTuneTarget extends ServerTuneTarget {
    public static final CaddyTuneTarget INSTANCE = new CaddyTuneTarget();

    private static final Pattern REVERSE_PROXY = Pattern.compile("(?m)^\\s*reverse_proxy\\b");
    private static final int CLASS_5XX = 5;

    /** Caddy's JSON names its handlers; a reverse proxy is {@code "handler": "reverse_proxy"}. */
    private static final Pattern JSON_HANDLER = Pattern.compile("\"handler\"\\s*:\\s*\"reverse_proxy\"");

    private CaddyTuneTarget() {
        super("Caddy", "a Caddy reverse_proxy", "a Caddyfile");
    }

    @Override
    public String flag() {
        return "caddy";
    }

    @Override
    public String description() {
        return "a Caddy reverse_proxy";
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
        CaddyPassiveConfig now = current instanceof CaddyRun r ? r.config() : defaultConfig(Math.max(1, hosts));
        String text = caddyfile(apply(now, s));
        CaddyPassiveConfig read =
                CaddyConfigReader.readText(text, "tune-Caddyfile").config();
        return new Written(text, fields(read), 0, new CaddyRun(read));
    }

    /** A Caddyfile with a {@code reverse_proxy}, or Caddy's JSON with a handler {@code "reverse_proxy"}. */
    @Override
    public CurrentSettings readOwn(String text, String source) {
        String t = text.strip();
        boolean json = t.startsWith("{") && JSON_HANDLER.matcher(text).find();
        if (!json
                && (t.startsWith("{\"")
                        || t.startsWith("[")
                        || !REVERSE_PROXY.matcher(text).find())) {
            return null;
        }
        CaddySettings read = CaddyConfigReader.readText(text, source);
        CaddyPassiveConfig c = read.config();
        return new CurrentSettings(
                "reverse_proxy", source, this, fields(c), 0, c.upstreams().size(), null, null, new CaddyRun(c), null);
    }

    @Override
    public CurrentSettings defaults(String name, int hosts) {
        CaddyPassiveConfig c = defaultConfig(Math.max(1, hosts));
        return new CurrentSettings(name, null, this, fields(c), 0, null, null, null, new CaddyRun(c), null);
    }

    @Override
    public String healthChecksNotRun() {
        return "Caddy's active health checks are not run by the lab";
    }

    /**
     * {@code max_fails} 1, 2, 3 or 5; {@code fail_duration} the current, 10 s or 30 s; 5xx listed or as it is. With
     * 5xx listed, also the {@code max_fails} that a quarter of a server's requests in one {@code fail_duration} reaches
     * (at this rate), when above 5: Caddy's count is of the failures remembered for {@code fail_duration}, so a count
     * that small is reached by every server in a shared outage or under bad requests (5 % of every server's), and
     * when every upstream is unhealthy Caddy answers every request with an error; a count sized to the traffic is a
     * failure rate, which a host failing a third of its requests passes and a pool failing a fifth does not.
     */
    @Override
    public List<Setting> candidates(TuneRequest req) {
        CaddyPassiveConfig now = ((CaddyRun) req.currentProfile()).config();
        boolean has5xx = lists5xx(now);
        Set<Setting> out = new LinkedHashSet<>();
        for (int fails : new int[] {1, 2, 3, 5}) {
            for (long seconds : new long[] {now.failDurationNanos() / Durations.SECOND, 10, 30}) {
                if (seconds <= 0) {
                    continue;
                }
                out.add(Setting.of(fields(fails, seconds * Durations.SECOND, true)));
                if (!has5xx) {
                    out.add(Setting.of(fields(fails, seconds * Durations.SECOND, false)));
                }
            }
        }
        for (long seconds : new long[] {now.failDurationNanos() / Durations.SECOND, 10, 30}) {
            long quarter = (req.perHostPerInterval(seconds * Durations.SECOND) + 3) / 4;
            if (seconds > 0 && quarter > 5) {
                out.add(Setting.of(fields(quarter, seconds * Durations.SECOND, true)));
            }
        }
        out.remove(req.currentSetting());
        return new ArrayList<>(out);
    }

    /**
     * Why no setting the search tries catches a scenario whose host does not answer (a fault with
     * {@code result: timeout}) when the handler's http transport sets no {@code response_header_timeout}: the round
     * trip never returns, so Caddy neither counts nor retries the try ({@code proxyLoopIteration} in
     * {@code reverseproxy.go}); the search does not set it, since it is a transport setting that fails legitimate
     * responses slower than it. Null for any other scenario, or with the timeout set.
     */
    @Override
    public String cannotCatch(RunProfile current, SuiteScenario scenario) {
        if (!(current instanceof CaddyRun run)
                || run.config().responseHeaderTimeoutNanos() > 0
                || scenario.scenario().faults().stream().noneMatch(f -> f.result() == FaultResult.TIMEOUT)) {
            return null;
        }
        return "Caddy counts no failure for a try that does not answer unless the http transport sets "
                + "response_header_timeout (it has none by default: the try holds its request, never counted, never "
                + "retried), and the search does not set it: it is a transport setting, and every legitimate response "
                + "slower than it would fail and count too (transport http { response_header_timeout 5s }, above "
                + "your slowest response; check says caddy-hanging-upstream-never-counted)";
    }

    @Override
    public String label(Setting s) {
        return s.consecutive5xx() == 0
                ? "passive off"
                : "max_fails " + s.consecutive5xx() + " fail_duration "
                        + Durations.format(s.baseEjectionTimeNanos())
                        + (s.failurePercentageThreshold() > 0 ? " +5xx" : " -5xx");
    }

    @Override
    public List<String> detectors(TuneRequest req) {
        return List.of("Caddy: " + label(req.currentSetting()) + " (each failure remembered for fail_duration)");
    }

    @Override
    public List<String> changes(Setting a, Setting b, int hosts) {
        return List.of(label(b) + " (was " + label(a) + ")");
    }

    /**
     * The user's Caddyfile with only {@code fail_duration}, {@code max_fails} and {@code unhealthy_status} of its
     * first {@code reverse_proxy} changed where their values change (added to the block when absent).
     */
    @Override
    public DeployableFile.Spliced splice(
            String original,
            OutlierDetectionConfig currentConfig,
            Setting recommended,
            Written written,
            EnvoyVersion version,
            String cluster) {
        CaddySettings read = CaddyConfigReader.readText(original, "Caddyfile");
        CaddyPassiveConfig now = read.config();
        CaddyPassiveConfig want = ((CaddyRun) written.profile()).config();
        Map<String, String> values = new LinkedHashMap<>();
        if (now.failDurationNanos() != want.failDurationNanos()) {
            values.put("fail_duration", Durations.format(want.failDurationNanos()));
        }
        if (now.maxFails() != want.maxFails()) {
            values.put("max_fails", Integer.toString(want.maxFails()));
        }
        if (!now.unhealthyStatus().equals(want.unhealthyStatus())) {
            values.put("unhealthy_status", statusWords(want.unhealthyStatus()));
        }
        if (read.json()) {
            return jsonSplice(original, now, want);
        }
        String text = values.isEmpty() ? original : CaddyfileWriter.write(original, read, values);
        StringBuilder patch = new StringBuilder();
        values.forEach((k, v) -> patch.append(k).append(' ').append(v).append('\n'));
        return new DeployableFile.Spliced(text, values.isEmpty() ? null : patch.toString(), null);
    }

    /** Caddy's JSON: the changed fields of the first handler's {@code health_checks.passive}, in JSON. */
    private static DeployableFile.Spliced jsonSplice(String original, CaddyPassiveConfig now, CaddyPassiveConfig want) {
        Map<String, String> values = new LinkedHashMap<>();
        if (now.failDurationNanos() != want.failDurationNanos()) {
            values.put("fail_duration", "\"" + Durations.format(want.failDurationNanos()) + "\"");
        }
        if (now.maxFails() != want.maxFails()) {
            values.put("max_fails", Integer.toString(want.maxFails()));
        }
        if (!now.unhealthyStatus().equals(want.unhealthyStatus())) {
            // Caddy's JSON writes a status class as its digit: 5 is 5xx
            values.put(
                    "unhealthy_status",
                    want.unhealthyStatus().stream().map(String::valueOf).collect(Collectors.joining(", ", "[", "]")));
        }
        if (values.isEmpty()) {
            return new DeployableFile.Spliced(original, null, null);
        }
        StringBuilder patch = new StringBuilder("health_checks.passive: {");
        patch.append(values.entrySet().stream()
                        .map(e -> "\"" + e.getKey() + "\": " + e.getValue())
                        .collect(Collectors.joining(", ")))
                .append("}\n");
        return new DeployableFile.Spliced(CaddyJsonWriter.write(original, values), patch.toString(), null);
    }

    /**
     * The {@code reverse_proxy}'s passive health check as the written file has it, in the Caddyfile's subdirectives:
     * {@code fail_duration} ({@code 0s}: no passive check, Caddy's default), {@code max_fails} and
     * {@code unhealthy_status} (a class as {@code 5xx}, a status as its number).
     */
    @Override
    public Map<String, Object> fields(Setting s, Written written) {
        CaddyPassiveConfig c = written.profile() instanceof CaddyRun r ? r.config() : apply(defaultConfig(1), s);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("fail_duration", Durations.format(c.failDurationNanos()));
        m.put("max_fails", c.maxFails());
        List<Object> status = new ArrayList<>();
        for (int code : c.unhealthyStatus()) {
            status.add(code < 10 ? code + "xx" : (Object) code);
        }
        m.put("unhealthy_status", status);
        return m;
    }

    @Override
    public String patchHeading() {
        return "Or only the changed subdirectives (in the reverse_proxy block):\n";
    }

    static Setting setting(CaddyPassiveConfig c) {
        return Setting.of(fields(c));
    }

    private static OutlierDetectionConfig fields(CaddyPassiveConfig c) {
        return fields(c.passive() ? c.maxFails() : 0, c.failDurationNanos(), lists5xx(c));
    }

    private static OutlierDetectionConfig fields(long fails, long durationNanos, boolean with5xx) {
        return OutlierDetectionConfig.defaults().toBuilder()
                .set(OutlierSetting.CONSECUTIVE_5XX, Math.max(1, fails))
                .set(OutlierSetting.ENFORCING_CONSECUTIVE_5XX, fails > 0 ? 100 : 0)
                .set(OutlierSetting.BASE_EJECTION_TIME, Math.max(Durations.SECOND, durationNanos))
                .set(OutlierSetting.FAILURE_PERCENTAGE_THRESHOLD, 1)
                .set(OutlierSetting.ENFORCING_FAILURE_PERCENTAGE, with5xx ? 100 : 0)
                .build();
    }

    private static boolean lists5xx(CaddyPassiveConfig c) {
        return c.unhealthyStatus().contains(CLASS_5XX);
    }

    /** The handler with the setting: its other subdirectives and status entries kept. */
    static CaddyPassiveConfig apply(CaddyPassiveConfig c, Setting s) {
        List<Integer> status = new ArrayList<>(c.unhealthyStatus());
        if (s.failurePercentageThreshold() > 0 && !status.contains(CLASS_5XX)) {
            status.add(CLASS_5XX);
        } else if (s.failurePercentageThreshold() == 0) {
            status.remove(Integer.valueOf(CLASS_5XX));
        }
        return new CaddyPassiveConfig(
                c.upstreams(),
                s.consecutive5xx() == 0 ? 0 : s.baseEjectionTimeNanos(),
                (int) Math.max(1, s.consecutive5xx()),
                status,
                c.unhealthyLatencyNanos(),
                c.tryDurationNanos(),
                c.tryIntervalNanos(),
                c.retries(),
                c.policy(),
                c.responseHeaderTimeoutNanos());
    }

    static String statusWords(List<Integer> status) {
        List<String> words = new ArrayList<>();
        for (int s : status) {
            words.add(s < 10 ? s + "xx" : Integer.toString(s));
        }
        return String.join(" ", words);
    }

    /**
     * A Caddyfile of one site on 127.0.0.1:8080 with this reverse_proxy: every subdirective the lab models, so the
     * file read back is the handler (the user's {@code lb_policy}, {@code lb_try_interval} and transport kept, and
     * each candidate judged under them).
     */
    static String caddyfile(CaddyPassiveConfig c) {
        StringBuilder out = new StringBuilder("127.0.0.1:8080 {\n\treverse_proxy");
        c.upstreams().forEach(u -> out.append(' ').append(u));
        out.append(" {\n");
        if (c.policy() != CaddySelection.Policy.RANDOM) {
            out.append("\t\tlb_policy ").append(c.policy().word()).append('\n');
        }
        if (c.passive()) {
            out.append("\t\tfail_duration ")
                    .append(Durations.format(c.failDurationNanos()))
                    .append('\n');
            out.append("\t\tmax_fails ").append(c.maxFails()).append('\n');
        }
        if (!c.unhealthyStatus().isEmpty()) {
            out.append("\t\tunhealthy_status ")
                    .append(statusWords(c.unhealthyStatus()))
                    .append('\n');
        }
        if (c.unhealthyLatencyNanos() > 0) {
            out.append("\t\tunhealthy_latency ")
                    .append(Durations.format(c.unhealthyLatencyNanos()))
                    .append('\n');
        }
        if (c.tryDurationNanos() > 0) {
            out.append("\t\tlb_try_duration ")
                    .append(Durations.format(c.tryDurationNanos()))
                    .append('\n');
        }
        if (c.tryIntervalNanos() > 0) {
            out.append("\t\tlb_try_interval ")
                    .append(Durations.format(c.tryIntervalNanos()))
                    .append('\n');
        }
        if (c.retries() > 0) {
            out.append("\t\tlb_retries ").append(c.retries()).append('\n');
        }
        if (c.responseHeaderTimeoutNanos() > 0) {
            out.append("\t\ttransport http {\n\t\t\tresponse_header_timeout ")
                    .append(Durations.format(c.responseHeaderTimeoutNanos()))
                    .append("\n\t\t}\n");
        }
        out.append("\t}\n}\n");
        return out.toString();
    }

    private static CaddyPassiveConfig defaultConfig(int hosts) {
        List<String> upstreams = new ArrayList<>();
        for (int h = 0; h < hosts; h++) {
            upstreams.add("127.0.0.1:" + (8081 + h));
        }
        return CaddyPassiveConfig.of(upstreams, 0, 1);
    }

    @Override
    public String toString() {
        return flag();
    }
}
