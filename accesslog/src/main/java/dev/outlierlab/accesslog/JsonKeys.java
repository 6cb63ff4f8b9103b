package dev.outlierlab.accesslog;

/**
 * The JSON keys of the fields replay reads from JSON access logs (Envoy's {@code json_format}). The defaults are
 * the keys of Istio's JSON format ({@code EnvoyJSONLogFormatIstio}), which most hand-written {@code json_format}
 * configurations copy; each can be changed with {@code --json-key FIELD=KEY}.
 *
 * @param instance the key naming the proxy instance, or null
 */
public record JsonKeys(
        String startTime,
        String responseCode,
        String responseFlags,
        String upstreamHost,
        String upstreamCluster,
        String duration,
        String instance) {
    public static final JsonKeys ISTIO = new JsonKeys(
            "start_time", "response_code", "response_flags", "upstream_host", "upstream_cluster", "duration", null);

    /** These keys with one changed: {@code field} is one of start_time, response_code, ... as in {@link #ISTIO}. */
    public JsonKeys with(String field, String key) {
        return switch (field) {
            case "start_time" ->
                new JsonKeys(key, responseCode, responseFlags, upstreamHost, upstreamCluster, duration, instance);
            case "response_code" ->
                new JsonKeys(startTime, key, responseFlags, upstreamHost, upstreamCluster, duration, instance);
            case "response_flags" ->
                new JsonKeys(startTime, responseCode, key, upstreamHost, upstreamCluster, duration, instance);
            case "upstream_host" ->
                new JsonKeys(startTime, responseCode, responseFlags, key, upstreamCluster, duration, instance);
            case "upstream_cluster" ->
                new JsonKeys(startTime, responseCode, responseFlags, upstreamHost, key, duration, instance);
            case "duration" ->
                new JsonKeys(startTime, responseCode, responseFlags, upstreamHost, upstreamCluster, key, instance);
            case "instance" ->
                new JsonKeys(startTime, responseCode, responseFlags, upstreamHost, upstreamCluster, duration, key);
            default -> throw new IllegalArgumentException(field);
        };
    }

    /** The field names {@link #with} takes. */
    public static final String FIELDS =
            "start_time, response_code, response_flags, upstream_host, upstream_cluster, duration, instance";
}
