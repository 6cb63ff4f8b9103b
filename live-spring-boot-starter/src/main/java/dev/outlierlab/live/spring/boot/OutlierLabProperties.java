package dev.outlierlab.live.spring.boot;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The starter's properties: one entry per load-balanced service under {@code outlier-lab.services.NAME},
 * NAME being the Spring Cloud LoadBalancer service id (the host of {@code http://NAME/...}). A service not
 * listed keeps Spring's own instance supplier and gets no pool.
 */
@ConfigurationProperties("outlier-lab")
public class OutlierLabProperties {
    private Map<String, Service> services = new LinkedHashMap<>();

    public Map<String, Service> getServices() {
        return services;
    }

    public void setServices(Map<String, Service> services) {
        this.services = services;
    }

    /** One service's pool. */
    public static class Service {
        /** {@code envoy} (default) or {@code gateway}. */
        private String profile = "envoy";
        /** {@code off}, {@code shadow} or {@code prod}; default prod (the gateway profile: its settings' mode). */
        private String mode;
        /** Envoy's healthy_panic_threshold in percent (Envoy profile; default 50, 0 turns panic off). */
        private Integer panicThreshold;
        /** The gateway profile's optional cap in percent (100, the default, is none). */
        private Integer maxEjectionPercent;
        /** Count a 429 (RESOURCE_EXHAUSTED in gRPC) as a failure. */
        private boolean failOn429;
        /**
         * The profile's settings by their names: Envoy's {@code outlier_detection} fields ({@code consecutive_5xx},
         * {@code interval}, {@code base_ejection_time}, ...) or the gateway's ({@code window}, {@code bucket},
         * {@code min_requests}, {@code stdev_factor}, {@code peer_set}, {@code min_stdev},
         * {@code consecutive_failures}, {@code ejection_time}); durations in Spring's format with a unit
         * ({@code 10s}, {@code 500ms}, {@code PT30S}).
         */
        private Map<String, String> settings = new LinkedHashMap<>();

        public String getProfile() {
            return profile;
        }

        public void setProfile(String profile) {
            this.profile = profile;
        }

        public String getMode() {
            return mode;
        }

        public void setMode(String mode) {
            this.mode = mode;
        }

        public Integer getPanicThreshold() {
            return panicThreshold;
        }

        public void setPanicThreshold(Integer panicThreshold) {
            this.panicThreshold = panicThreshold;
        }

        public Integer getMaxEjectionPercent() {
            return maxEjectionPercent;
        }

        public void setMaxEjectionPercent(Integer maxEjectionPercent) {
            this.maxEjectionPercent = maxEjectionPercent;
        }

        public boolean isFailOn429() {
            return failOn429;
        }

        public void setFailOn429(boolean failOn429) {
            this.failOn429 = failOn429;
        }

        public Map<String, String> getSettings() {
            return settings;
        }

        public void setSettings(Map<String, String> settings) {
            this.settings = settings;
        }
    }
}
