package dev.outlierlab.accesslog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.envoy.RequestResult;
import dev.outlierlab.sim.trace.TraceRecord;
import java.nio.charset.StandardCharsets;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

/**
 * Hand-written lines, one per response flag and one per format variant, with what Envoy's detector was told for
 * each (docs/replay.md has the same table).
 */
class OutcomeMappingTest {
    private static final TextLogFormat ENVOY = TextLogFormat.compile("envoy", KnownFormats.ENVOY, null);
    private static final TextLogFormat ISTIO = TextLogFormat.compile("istio", KnownFormats.ISTIO, null);
    private static final TextLogFormat ISTIO_15 = TextLogFormat.compile("istio-1.5", KnownFormats.ISTIO_1_5, null);
    private static final JsonLogFormat JSON =
            new JsonLogFormat(JsonKeys.ISTIO, StartTimeFormat.compile(StartTimeFormat.ENVOY_DEFAULT));

    private static String envoyLine(int code, String flags, String host) {
        return "[2026-11-30T19:36:35.123Z] \"GET /books?q=go HTTP/1.1\" " + code + " " + flags
                + " 0 113 25 24 \"10.0.0.9\" \"curl/8.5.0\" \"6f1c2b8e-6a4e-4a57-9d4c-1f3e2b7c9a10\" \"search\" \""
                + host + "\"";
    }

    private static ParsedLine parse(LogFormat f, String line) {
        byte[] b = line.getBytes(StandardCharsets.UTF_8);
        ParsedLine p = new ParsedLine();
        assertThat(f.parse(b, 0, b.length, p)).as("%s: %s", line, p.error()).isTrue();
        return p;
    }

    private static LineOutcome outcome(String line) {
        ParsedLine p = parse(ENVOY, line);
        return OutcomeMapping.map(p.hasHost(), p.code, p.flags);
    }

    @Test
    void everyResponseFlagBecomesWhatTheRouterReported() {
        String h = "10.1.2.3:8080";
        assertThat(outcome(envoyLine(200, "-", h))).isEqualTo(LineOutcome.RESPONSE);
        assertThat(outcome(envoyLine(503, "-", h))).isEqualTo(LineOutcome.RESPONSE);
        assertThat(outcome(envoyLine(503, "UF", h))).isEqualTo(LineOutcome.CONNECT_FAILED);
        assertThat(outcome(envoyLine(503, "UF,URX", h))).isEqualTo(LineOutcome.CONNECT_FAILED);
        assertThat(outcome(envoyLine(504, "UT", h))).isEqualTo(LineOutcome.TIMEOUT);
        assertThat(outcome(envoyLine(504, "UT,URX", h))).isEqualTo(LineOutcome.TIMEOUT);
        assertThat(outcome(envoyLine(504, "SI", h))).isEqualTo(LineOutcome.TIMEOUT);
        assertThat(outcome(envoyLine(503, "UC", h))).isEqualTo(LineOutcome.RESET);
        assertThat(outcome(envoyLine(503, "UR", h))).isEqualTo(LineOutcome.RESET);
        assertThat(outcome(envoyLine(503, "LR", h))).isEqualTo(LineOutcome.RESET);
        assertThat(outcome(envoyLine(502, "UPE", h))).isEqualTo(LineOutcome.RESET);
        assertThat(outcome(envoyLine(408, "UMSDR", h))).isEqualTo(LineOutcome.CONNECTED_ONLY);
        assertThat(outcome(envoyLine(0, "DC", h))).isEqualTo(LineOutcome.CONNECTED_ONLY);
        assertThat(outcome(envoyLine(200, "DC", h))).isEqualTo(LineOutcome.RESPONSE);
        assertThat(outcome(envoyLine(503, "URX", h))).isEqualTo(LineOutcome.RESPONSE);
        assertThat(outcome(envoyLine(503, "UO", h)))
                .as("UO with a host: a retry overflow, the code is the upstream's")
                .isEqualTo(LineOutcome.RESPONSE);
        assertThat(outcome(envoyLine(200, "DI", h))).isEqualTo(LineOutcome.RESPONSE);
        assertThat(outcome(envoyLine(200, "RFCF", h))).isEqualTo(LineOutcome.RESPONSE);
        assertThat(outcome(envoyLine(0, "-", h))).isEqualTo(LineOutcome.NO_RESPONSE);
        for (String noHost : new String[] {
            "UH", "NR", "NC", "RL", "FI", "UAEX", "RLSE", "IH", "DPE", "LH", "DT", "OM", "DF", "DO", "NFCF", "UO", "DR",
            "UDO"
        }) {
            assertThat(outcome(envoyLine(503, noHost, "-"))).as(noHost).isEqualTo(LineOutcome.NO_UPSTREAM_HOST);
        }
        assertThat(outcome(envoyLine(200, "UPSTREAM_X_CUSTOM", h)))
                .as("unknown flags are ignored")
                .isEqualTo(LineOutcome.RESPONSE);
    }

    @Test
    void longFlagNamesAreReadToo() {
        byte[] b = "UpstreamRequestTimeout,UpstreamRetryLimitExceeded".getBytes(StandardCharsets.US_ASCII);
        long mask = ResponseFlag.parse(b, 0, b.length);
        assertThat(ResponseFlag.format(mask)).isEqualTo("UT,URX");
    }

    @Test
    void eachOutcomeIsTheTraceRecordOfTheRoutersCalls() {
        assertThat(LogReplay.record(LineOutcome.RESPONSE, 503, 7, 100, 2))
                .isEqualTo(new TraceRecord(100, 2, 503, null, 7, true));
        assertThat(LogReplay.record(LineOutcome.TIMEOUT, 504, 7, 100, 2))
                .isEqualTo(new TraceRecord(100, 2, 504, RequestResult.LOCAL_ORIGIN_TIMEOUT, 7, true));
        assertThat(LogReplay.record(LineOutcome.TIMEOUT, 0, 7, 100, 2).code())
                .as("no code logged: Envoy's 504")
                .isEqualTo(504);
        assertThat(LogReplay.record(LineOutcome.CONNECT_FAILED, 503, 7, 100, 2))
                .isEqualTo(new TraceRecord(100, 2, -1, RequestResult.LOCAL_ORIGIN_CONNECT_FAILED, 7, false));
        assertThat(LogReplay.record(LineOutcome.RESET, 503, 7, 100, 2))
                .isEqualTo(new TraceRecord(100, 2, -1, RequestResult.LOCAL_ORIGIN_CONNECT_FAILED, 7, true));
        assertThat(LogReplay.record(LineOutcome.CONNECTED_ONLY, 408, 7, 100, 2))
                .isEqualTo(new TraceRecord(100, 2, -1, RequestResult.LOCAL_ORIGIN_CONNECT_SUCCESS, 7, false));
    }

    @Test
    void envoysDefaultFormatGivesTimeHostCodeFlagsAndDuration() {
        ParsedLine p = parse(ENVOY, envoyLine(503, "UF,URX", "10.1.2.3:8080"));
        assertThat(p.startEpochNanos).isEqualTo(1_796_067_395_123_000_000L);
        assertThat(p.durationNanos).isEqualTo(25_000_000L);
        assertThat(p.endEpochNanos()).isEqualTo(1_796_067_395_148_000_000L);
        assertThat(p.code).isEqualTo(503);
        assertThat(ResponseFlag.format(p.flags)).isEqualTo("UF,URX");
        assertThat(new String(p.bytes, p.hostStart, p.hostEnd - p.hostStart, StandardCharsets.UTF_8))
                .isEqualTo("10.1.2.3:8080");
        assertThat(p.clusterStart).as("Envoy's default format has no cluster").isNegative();
    }

    @Test
    void istiosFormatsOfEachVersionGiveTheClusterToo() {
        String istio =
                "[2026-11-30T19:36:35.123Z] \"GET /reviews/0 HTTP/1.1\" 503 UF upstream_reset_before_response_started{connection_failure} - "
                        + "\"delayed_connect_error:_111\" 0 91 3 - \"-\" \"curl/8.5.0\" \"4e43168a-01e6-907c-ba17-2f72fad816a8\" \"reviews:9080\" "
                        + "\"10.244.1.15:9080\" outbound|9080||reviews.default.svc.cluster.local - 10.96.81.152:9080 10.244.2.19:55058 - default";
        ParsedLine p = parse(ISTIO, istio);
        assertThat(p.code).isEqualTo(503);
        assertThat(OutcomeMapping.map(p.hasHost(), p.code, p.flags)).isEqualTo(LineOutcome.CONNECT_FAILED);
        assertThat(new String(p.bytes, p.clusterStart, p.clusterEnd - p.clusterStart, StandardCharsets.UTF_8))
                .isEqualTo("outbound|9080||reviews.default.svc.cluster.local");
        String istio15 =
                "[2020-11-25T21:26:18.409Z] \"GET /status/418 HTTP/1.1\" 418 - \"-\" \"-\" 0 135 4 4 \"-\" \"curl/7.73.0\" "
                        + "\"84961386-6d84-929d-98bd-c5aee93b5c88\" \"httpbin:8000\" \"10.44.1.27:80\" outbound|8000||httpbin.foo.svc.cluster.local "
                        + "10.44.1.23:37652 10.0.45.184:8000 10.44.1.23:46520 - default";
        ParsedLine q = parse(ISTIO_15, istio15);
        assertThat(q.code).isEqualTo(418);
        assertThat(q.endEpochNanos()).isEqualTo(1_606_339_578_413_000_000L);
        byte[] b = istio15.getBytes(StandardCharsets.UTF_8);
        assertThat(ISTIO.parse(b, 0, b.length, new ParsedLine()))
                .as("1.5's line is not 1.9's format")
                .isFalse();
        byte[] e = envoyLine(200, "-", "h").getBytes(StandardCharsets.UTF_8);
        assertThat(ISTIO.parse(e, 0, e.length, new ParsedLine())).isFalse();
    }

    @Test
    void jsonLinesWithStringOrNumberValuesAndConfigurableKeys() {
        ParsedLine p = parse(
                JSON,
                "{\"start_time\":\"2026-11-30T19:36:35.123Z\",\"response_code\":504,\"response_flags\":\"UT\","
                        + "\"duration\":\"1000\",\"upstream_host\":\"10.1.2.3:8080\",\"upstream_cluster\":\"search\",\"extra\":{\"a\":[1]}}");
        assertThat(p.endEpochNanos()).isEqualTo(1_796_067_396_123_000_000L);
        assertThat(OutcomeMapping.map(p.hasHost(), p.code, p.flags)).isEqualTo(LineOutcome.TIMEOUT);
        JsonLogFormat custom = new JsonLogFormat(
                JsonKeys.ISTIO.with("upstream_host", "backend").with("start_time", "ts"),
                StartTimeFormat.compile(StartTimeFormat.ENVOY_DEFAULT));
        ParsedLine q = parse(
                custom, "{\"ts\":1796067395.5,\"response_code\":200,\"backend\":\"b-1\",\"response_flags\":null}");
        assertThat(q.startEpochNanos).isEqualTo(1_796_067_395_500_000_000L);
        assertThat(q.hasHost()).isTrue();
        ParsedLine r = new ParsedLine();
        byte[] bad = "{\"start_time\":\"2026-11-30T19:36:35.123Z\"}".getBytes(StandardCharsets.UTF_8);
        assertThat(JSON.parse(bad, 0, bad.length, r)).isFalse();
        assertThat(r.error()).contains("response_code");
    }

    @Test
    void customFormatStringsWithStartTimePatternsAndAttemptCount() {
        TextLogFormat f = TextLogFormat.compile(
                "custom",
                "%START_TIME(%s.%6f)% code=%RESPONSE_CODE% flags=%RESPONSE_FLAGS% "
                        + "up=%UPSTREAM_HOST% c=%UPSTREAM_CLUSTER% rt=%RESPONSE_DURATION% tries=%UPSTREAM_REQUEST_ATTEMPT_COUNT% "
                        + "route=%ROUTE_NAME% pod=%HOSTNAME%\n",
                "HOSTNAME");
        ParsedLine p = parse(
                f,
                "1796067395.123456 code=503 flags=UC up=10.0.0.7:80 c=search rt=12 tries=3 route=default pod=web-7d9f");
        assertThat(p.startEpochNanos).isEqualTo(1_796_067_395_123_456_000L);
        assertThat(p.durationNanos)
                .as("RESPONSE_DURATION when there is no DURATION")
                .isEqualTo(12_000_000L);
        assertThat(p.attempts).isEqualTo(3);
        assertThat(new String(p.bytes, p.instanceStart, p.instanceEnd - p.instanceStart, StandardCharsets.UTF_8))
                .isEqualTo("web-7d9f");
        assertThat(OutcomeMapping.map(p.hasHost(), p.code, p.flags)).isEqualTo(LineOutcome.RESET);
        TextLogFormat iso = TextLogFormat.compile("iso", "%START_TIME(%FT%T%z)% %RESPONSE_CODE% %UPSTREAM_HOST%", null);
        assertThat(parse(iso, "2026-11-30T20:36:35+0100 200 h").startEpochNanos).isEqualTo(1_796_067_395_000_000_000L);
    }

    @Test
    void formatStringsThatCannotBeReadAreRejectedWithTheReason() {
        Assertions.assertThatThrownBy(() -> TextLogFormat.compile("f", "%START_TIME% %RESPONSE_CODE%", null))
                .hasMessageContaining("no %UPSTREAM_HOST%");
        Assertions.assertThatThrownBy(
                        () -> TextLogFormat.compile("f", "%START_TIME%%RESPONSE_CODE% %UPSTREAM_HOST%", null))
                .hasMessageContaining("no text between them");
        Assertions.assertThatThrownBy(
                        () -> TextLogFormat.compile("f", "%START_TIME(%Q)% %RESPONSE_CODE% %UPSTREAM_HOST%", null))
                .hasMessageContaining("%Q is not supported");
    }
}
