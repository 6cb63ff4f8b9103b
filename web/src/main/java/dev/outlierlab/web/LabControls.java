package dev.outlierlab.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.config.scenario.Examples;
import dev.outlierlab.config.scenario.ScenarioWriter;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.engine.profile.Profiles;
import dev.outlierlab.report.ResultJson;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.scenario.TrafficSpec;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The page's controls, defined once: each one's group, label, unit, the scenario key it edits, its range
 * and the one-line explanation shown on hover and focus. Explanations of Envoy fields come from
 * {@link OutlierSetting#description()}, so the CLI's help and the lab's tooltips cannot drift apart. The
 * page builds its form from {@code GET /api/settings}.
 */
final class LabControls {
    /**
     * One control.
     *
     * @param path  the scenario key, dotted, e.g. {@code outlier_detection.max_ejection_percent}
     * @param kind  {@code count}, {@code decimal}, {@code seconds} (a duration edited in seconds),
     *              {@code fault_hosts} (the first fault's host count, 0 for no fault), {@code toggle} or
     *              {@code choice} (one of {@code options})
     * @param on    for a toggle, the value written when checked (null otherwise); {@code off} when unchecked
     *              (null for a section such as {@code health_checks} that is then absent)
     * @param options for a choice, the values allowed; empty otherwise
     */
    record Control(
            String group,
            String id,
            String label,
            String unit,
            String path,
            String kind,
            double min,
            double max,
            double step,
            String description,
            Object on,
            Object off,
            List<String> options) {}

    private static final String OD = "outlier_detection.";

    private LabControls() {}

    static List<Control> controls(SimulationLimits limits) {
        return List.of(
                number(
                        "Cluster and traffic",
                        "hosts",
                        "Hosts",
                        "hosts",
                        "cluster.hosts",
                        "count",
                        1,
                        limits.maxHosts(),
                        1,
                        "Upstream hosts in the cluster, named host-0, host-1, ...; traffic is spread round-robin over those in rotation."),
                number(
                        "Cluster and traffic",
                        "rps",
                        "Requests per second",
                        "req/s",
                        "traffic.rps",
                        "count",
                        1,
                        TrafficSpec.MAX_RPS,
                        1,
                        "Requests per second to the whole cluster, sent evenly spaced."),
                number(
                        "Cluster and traffic",
                        "clients",
                        "Callers",
                        "callers",
                        "traffic.clients",
                        "count",
                        1,
                        TrafficSpec.MAX_CLIENTS,
                        1,
                        "Callers sharing the requests per second, each its own detector "
                                + "with its own rotation and panic state (a sidecar per calling pod, a gRPC channel): "
                                + "600 rps over 50 callers is 12 rps each, 2 per host of six."),
                number(
                        "Cluster and traffic",
                        "duration",
                        "Duration",
                        "s",
                        "duration",
                        "seconds",
                        0.001,
                        86_400,
                        1,
                        "Simulated time; the detector's interval ticks run up to and including its end."),
                number(
                        "Cluster and traffic",
                        "panic_threshold",
                        "Panic threshold",
                        "%",
                        "cluster.panic_threshold",
                        "decimal",
                        0,
                        100,
                        1,
                        "Envoy's healthy_panic_threshold: below this share of healthy hosts, traffic goes to "
                                + "every host, ejected or not (0 disables panic mode)."),
                number(
                        "Fault",
                        "faulty_hosts",
                        "Faulty hosts",
                        "hosts",
                        "faults[0].hosts",
                        "fault_hosts",
                        0,
                        limits.maxHosts(),
                        1,
                        "How many hosts fail (the first N: host-0, host-1, ...); 0 for no fault."),
                number(
                        "Fault",
                        "error_rate",
                        "Error rate",
                        "%",
                        "faults[0].error_rate",
                        "decimal",
                        0,
                        100,
                        1,
                        "Share of a faulty host's requests that fail with HTTP 503, spread as the failure pattern says."),
                choice(
                        "Fault",
                        "fault_pattern",
                        "Failure pattern",
                        "faults[0].pattern",
                        List.of("even", "random", "bursts"),
                        "How the failures are spread: even (the default, evenly spaced: 33 % is never two in a row), "
                                + "random (each request fails independently: what a fault that names no pattern does) "
                                + "or bursts (runs of failures, 5 long on average)."),
                number(
                        "Fault",
                        "fault_start",
                        "Fault start",
                        "s",
                        "faults[0].start",
                        "seconds",
                        0,
                        86_400,
                        1,
                        "When the faulty hosts start failing."),
                number(
                        "Fault",
                        "fault_end",
                        "Fault end",
                        "s",
                        "faults[0].end",
                        "seconds",
                        0,
                        86_400,
                        1,
                        "When they recover; the fault is active in [start, end)."),
                toggle(
                        "Detection",
                        "success_rate_on",
                        "Success-rate detection",
                        OD + "enforcing_success_rate",
                        100L,
                        0L,
                        "Eject hosts whose success rate falls below mean - factor x stdev of the cluster's; off sets "
                                + "enforcing_success_rate to 0 (detections are logged, never enforced)."),
                toggle(
                        "Detection",
                        "consecutive_5xx_on",
                        "Consecutive 5xx detection",
                        OD + "enforcing_consecutive_5xx",
                        100L,
                        0L,
                        "Eject a host after a run of consecutive 5xx responses; off sets enforcing_consecutive_5xx to 0."),
                setting("Detection", OutlierSetting.CONSECUTIVE_5XX, "Consecutive 5xx threshold", "responses", 1),
                toggle(
                        "Detection",
                        "failure_percentage_on",
                        "Failure-percentage detection",
                        OD + "enforcing_failure_percentage",
                        100L,
                        0L,
                        "Eject a host whose failure percentage in an interval reaches the threshold (Envoy's default "
                                + "is off: enforcing_failure_percentage 0)."),
                setting(
                        "Detection",
                        OutlierSetting.FAILURE_PERCENTAGE_THRESHOLD,
                        "Failure-percentage threshold",
                        "%",
                        0),
                setting("Ejection", OutlierSetting.INTERVAL, "Interval", "s", 0.001),
                setting("Ejection", OutlierSetting.BASE_EJECTION_TIME, "Base ejection time", "s", 0.001),
                setting("Ejection", OutlierSetting.MAX_EJECTION_TIME, "Max ejection time", "s", 0.001),
                setting("Ejection", OutlierSetting.MAX_EJECTION_PERCENT, "Max ejection percent", "%", 0),
                toggle(
                        "Ejection",
                        "always_eject_one_host",
                        "Always eject one host",
                        OD + "always_eject_one_host",
                        true,
                        false,
                        OutlierSetting.ALWAYS_EJECT_ONE_HOST.description() + " (always_eject_one_host)."),
                toggle(
                        "Active health checks",
                        "health_checks_on",
                        "Active health checks",
                        "health_checks",
                        Map.of("interval", "5s", "unhealthy_threshold", 3L, "healthy_threshold", 2L),
                        null,
                        "Probe every host at each interval; a probe fails only while a fault with fails_health_check "
                                + "covers the host, so a probe that skips the broken path keeps passing."),
                number(
                        "Active health checks",
                        "hc_interval",
                        "Check interval",
                        "s",
                        "health_checks.interval",
                        "seconds",
                        0.001,
                        86_400,
                        1,
                        "Time between two rounds of probes (the first is at 0 s)."),
                number(
                        "Active health checks",
                        "hc_unhealthy",
                        "Unhealthy threshold",
                        "probes",
                        "health_checks.unhealthy_threshold",
                        "count",
                        1,
                        1_000_000,
                        1,
                        "Failed probes in a row (timeouts, refused connections) that mark a host unhealthy; an "
                                + "unexpected status marks it at once."),
                number(
                        "Active health checks",
                        "hc_healthy",
                        "Healthy threshold",
                        "probes",
                        "health_checks.healthy_threshold",
                        "count",
                        1,
                        1_000_000,
                        1,
                        "Passing probes in a row that clear the mark."),
                toggle(
                        "Active health checks",
                        "uneject_on_check",
                        "A passing check returns an ejected host",
                        OD + "successful_active_health_check_uneject_host",
                        true,
                        false,
                        OutlierSetting.SUCCESSFUL_ACTIVE_HEALTH_CHECK_UNEJECT_HOST.description()
                                + " (successful_active_health_check_uneject_host)."));
    }

    private static Control number(
            String group,
            String id,
            String label,
            String unit,
            String path,
            String kind,
            double min,
            double max,
            double step,
            String description) {
        return new Control(group, id, label, unit, path, kind, min, max, step, description, null, null, List.of());
    }

    private static Control choice(
            String group, String id, String label, String path, List<String> options, String description) {
        return new Control(group, id, label, "", path, "choice", 0, 0, 0, description, null, null, options);
    }

    private static Control toggle(
            String group, String id, String label, String path, Object on, Object off, String description) {
        return new Control(group, id, label, "", path, "toggle", 0, 1, 1, description, on, off, List.of());
    }

    private static Control setting(String group, OutlierSetting s, String label, String unit, double min) {
        boolean duration = s.kind() == OutlierSetting.Kind.DURATION;
        double max = switch (s.kind()) {
            case PERCENT -> 100;
            case DURATION -> 86_400;
            default -> OutlierSetting.UINT32_MAX;
        };
        String description = capitalise(s.description()) + " (" + s.envoyName() + ").";
        return number(
                group,
                s.envoyName(),
                label,
                unit,
                OD + s.envoyName(),
                duration ? "seconds" : "count",
                min,
                max,
                1,
                description);
    }

    private static String capitalise(String text) {
        return text.isEmpty() ? text : Character.toUpperCase(text.charAt(0)) + text.substring(1);
    }

    /** The body of {@code GET /api/settings}. */
    static ObjectNode settingsJson(SimulationLimits limits) {
        ObjectMapper m = ResultJson.mapper();
        ObjectNode root = m.createObjectNode();
        root.set("limits", m.valueToTree(limits));
        root.set("defaults", m.valueToTree(ScenarioWriter.toMap(Scenario.defaults())));
        root.set("controls", m.valueToTree(controls(limits)));
        ArrayNode examples = root.putArray("examples");
        for (Examples.Example e : Examples.all()) {
            examples.addObject()
                    .put("name", e.name())
                    .put("summary", e.summary())
                    .set(
                            "scenario",
                            m.valueToTree(ScenarioWriter.toMap(
                                    Examples.load(e.name(), List.of()).scenario())));
        }
        for (Profiles.Registered p : Profiles.withFacet(LabProfile.class)) {
            p.facet(LabProfile.class).orElseThrow().controls(limits).ifPresent(c -> root.set(p.name(), c));
        }
        ArrayNode all = root.putArray("outlier_detection");
        for (OutlierSetting s : OutlierSetting.values()) {
            if (s.newerThanBundledApi()) {
                continue; // detect_degraded_hosts: the web lab's faults send no x-envoy-degraded (a scenario's kind:
                // degraded does)
            }
            ObjectNode n = all.addObject();
            n.put("name", s.envoyName());
            n.put("kind", s.kind().name().toLowerCase(Locale.ROOT));
            n.set("default", m.valueToTree(ScenarioWriter.settingValue(s, s.defaultValue())));
            n.put("description", capitalise(s.description()) + ".");
            n.put("allowed", s.allowedRange());
        }
        return root;
    }
}
