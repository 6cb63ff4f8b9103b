package dev.outlierlab.config.istio;

/**
 * One Envoy field of a translated DestinationRule and where its value came from.
 *
 * @param envoyField e.g. {@code outlier_detection.consecutive_5xx} or
 *                   {@code common_lb_config.healthy_panic_threshold}
 * @param value      the value Envoy gets, in Envoy's JSON form ({@code 7}, {@code 30s}, {@code true})
 * @param from       the Istio field and its value ({@code consecutive5xxErrors: 7}), or why it is what it is
 *                   ({@code Istio always sets 0: success-rate ejection off}, {@code Envoy default})
 */
public record TranslatedField(String envoyField, String value, String from) {}
