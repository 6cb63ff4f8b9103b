package dev.outlierlab.engine.grpc;

import dev.outlierlab.engine.InvalidConfigException;
import java.util.Locale;

/**
 * Which gRPC library's outlier-detection policy a {@link GrpcDetector} follows where the three differ:
 * grpc-java's {@code io.grpc.util.OutlierDetectionLoadBalancer} (1.85.1, checked against the real library),
 * grpc-go's {@code xds/internal/balancer/outlierdetection} balancer and gRPC C-core's
 * {@code src/core/load_balancing/outlier_detection/outlier_detection.cc} (both read from source only). The
 * differences are the place of the cap test, {@code max_ejection_percent: 0}, the double ejection by both
 * algorithms in one sweep, the enforcement draw and the service-config key for the cap.
 */
public enum GrpcImplementation {
    /** grpc-java: the cap stops the loop before each candidate; {@code ejected % >= max} stops, so 0 ejects nothing. */
    JAVA("grpc-java"),
    /** grpc-go: as Java, but the count of ejected endpoints is a counter a double ejection raises twice. */
    GO("grpc-go"),
    /** C-core: the cap is tested after the outlier test, the first ejection is always allowed, no double ejection. */
    CORE("grpc-core");

    private final String label;

    GrpcImplementation(String label) {
        this.label = label;
    }

    /** The name in scenarios and output: {@code java}, {@code go} or {@code core}. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The library's name for reports: {@code grpc-java}, {@code grpc-go}, {@code grpc-core}. */
    public String label() {
        return label;
    }

    /** The implementation named by {@link #key()}, or an {@link InvalidConfigException} for {@code key}. */
    public static GrpcImplementation parse(String key, String text) {
        for (GrpcImplementation i : values()) {
            if (i.key().equals(text)) {
                return i;
            }
        }
        throw new InvalidConfigException(key, "\"" + text + "\"", "one of java, go, core");
    }
}
