package dev.outlierlab.engine.envoy;

import dev.outlierlab.engine.InvalidConfigException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Envoy release whose outlier detection the lab reproduces, where releases differ. Among the changes modelled
 * (read from Envoy's source and release history; every one, with its source, is in {@code docs/envoy-fidelity.md}):
 * <ul>
 *   <li>The ejection cap. Up to 1.26 a host may go iff {@code 100 * active / hosts < max_ejection_percent}
 *       (checked before the ejection, so the first always goes); 1.27 (envoyproxy/envoy pull 27624) checks
 *       {@code 100 * (active + 1) / hosts <= max} but still always allows the first; from 1.28 (pull 27909,
 *       runtime guard {@code envoy.reloadable_features.check_mep_on_first_eject}) the first must fit too, unless
 *       {@code always_eject_one_host} (1.31, pull 34796).</li>
 *   <li>Health checks and ejected hosts. Before 1.31 (pull 32977, issue 32442) the health checker's
 *       check-complete callback returned an ejected host after any probe of a host not yet failed by active
 *       checking, a failing one included; from 1.31 only after a passing one.</li>
 * </ul>
 * The lab knows 1.26 to 1.40; 1.40 is the default.
 */
public record EnvoyVersion(int major, int minor) implements Comparable<EnvoyVersion> {
    private static final int OLDEST_MINOR = 26;
    private static final int NEWEST_MINOR = 40;
    public static final EnvoyVersion OLDEST = new EnvoyVersion(1, 26);
    public static final EnvoyVersion NEWEST = new EnvoyVersion(1, 40);
    public static final EnvoyVersion DEFAULT = NEWEST;
    /** The first release whose cap applies to the first ejection too. */
    public static final EnvoyVersion CAP_ON_FIRST_EJECTION = new EnvoyVersion(1, 28);
    /** The first release in which a returned host must stay back a whole interval before its multiplier drops. */
    public static final EnvoyVersion MULTIPLIER_DECAYS_AFTER_AN_INTERVAL = new EnvoyVersion(1, 28);
    /** The first release whose split mode keeps external codes (pull 39440). */
    public static final EnvoyVersion SPLIT_KEEPS_EXTERNAL_CODES = new EnvoyVersion(1, 39);
    /** The first release in which only a passing health check returns an ejected host. */
    public static final EnvoyVersion ONLY_PASSING_CHECK_UNEJECTS = new EnvoyVersion(1, 31);

    public static final String ALLOWED = "an Envoy release from 1.26 to 1.40, such as 1.40 or 1.36.2";

    private static final Pattern FORM = Pattern.compile("v?(\\d+)\\.(\\d+)(?:\\.\\d+)?");

    public EnvoyVersion {
        if (major != 1 || minor < OLDEST_MINOR || minor > NEWEST_MINOR) {
            throw new InvalidConfigException("envoy_version", major + "." + minor, ALLOWED);
        }
    }

    /** Reads {@code 1.36}, {@code 1.36.2} or {@code v1.36.2}; the patch release makes no difference here. */
    public static EnvoyVersion parse(String text) {
        Matcher m = FORM.matcher(text.trim());
        if (!m.matches()) {
            throw new InvalidConfigException("envoy_version", "\"" + text + "\"", ALLOWED);
        }
        int major;
        int minor;
        try {
            major = Integer.parseInt(m.group(1));
            minor = Integer.parseInt(m.group(2));
        } catch (NumberFormatException e) {
            throw new InvalidConfigException("envoy_version", "\"" + text + "\"", ALLOWED);
        }
        if (major != 1 || minor < OLDEST_MINOR || minor > NEWEST_MINOR) {
            throw new InvalidConfigException("envoy_version", "\"" + text + "\"", ALLOWED);
        }
        return new EnvoyVersion(major, minor);
    }

    /** How this release's {@code ejectHost} applies {@code max_ejection_percent}. */
    public CapRule capRule() {
        if (minor <= 26) {
            return CapRule.ACTIVE_BELOW_MAX;
        }
        return minor == 27 ? CapRule.FIRST_ALWAYS : CapRule.ACTIVE_PLUS_ONE;
    }

    /**
     * Whether the multiplier drops at the start of every tick for every host not ejected (before 1.28): from 1.28
     * (pull 29711) a host must have been back for a whole interval first, and the drop comes at the tick's end.
     */
    public boolean decaysMultiplierAtEveryTick() {
        return compareTo(MULTIPLIER_DECAYS_AFTER_AN_INTERVAL) < 0;
    }

    /**
     * The release that added a field of {@code OutlierDetection} newer than 1.26, or null: {@code
     * successful_active_health_check_uneject_host} 1.28 (it replaced a runtime flag, release notes of 1.28.0),
     * {@code always_eject_one_host} 1.31 (release notes of 1.31.0), {@code detect_degraded_hosts} 1.38 (release notes
     * of 1.38.0).
     */
    public static EnvoyVersion addedIn(OutlierSetting setting) {
        return switch (setting) {
            case SUCCESSFUL_ACTIVE_HEALTH_CHECK_UNEJECT_HOST -> new EnvoyVersion(1, 28);
            case ALWAYS_EJECT_ONE_HOST -> new EnvoyVersion(1, 31);
            case DETECT_DEGRADED_HOSTS -> new EnvoyVersion(1, 38);
            default -> null;
        };
    }

    /**
     * Refuses a configuration that sets a field this release does not have: Envoy of that release rejects the
     * unknown field, so the lab does not silently honour it.
     */
    public void checkFieldsExist(OutlierDetectionConfig config) {
        for (OutlierSetting setting : OutlierSetting.values()) {
            EnvoyVersion added = addedIn(setting);
            if (added != null && compareTo(added) < 0 && config.isExplicit(setting)) {
                throw new InvalidConfigException(
                        "outlier_detection." + setting.envoyName(),
                        setting.kind() == OutlierSetting.Kind.BOOLEAN
                                ? Boolean.toString(config.flag(setting))
                                : Long.toString(config.get(setting)),
                        "leaving it out: Envoy " + this + " has no such field (it arrived in " + added
                                + "); or envoy_version " + added + " or later");
            }
        }
    }

    /**
     * Whether split mode keeps an external result's code and no longer counts an external success as a local-origin
     * success (pull 39440): {@code putResultWithLocalExternalSplit} at wbpcode/envoy commit 47d4554 (which carries the
     * 1.39.0 fix to {@code setHostDegradedMainThread}), not at envoyproxy/envoy commit 00c7146; no release notes name
     * the release, so 1.39 is the lab's reading.
     */
    public boolean splitKeepsExternalCodes() {
        return compareTo(SPLIT_KEEPS_EXTERNAL_CODES) >= 0;
    }

    /** Whether the release has {@code detect_degraded_hosts} and counts {@code ejections_detected_degradation} (1.38). */
    public boolean hasDegradationCounter() {
        return minor >= 38;
    }

    /** Whether a failing active health check can return an ejected host (before 1.31). */
    public boolean failingHealthCheckUnejects() {
        return compareTo(ONLY_PASSING_CHECK_UNEJECTS) < 0;
    }

    public boolean atLeast(EnvoyVersion other) {
        return compareTo(other) >= 0;
    }

    @Override
    public int compareTo(EnvoyVersion o) {
        return major != o.major ? Integer.compare(major, o.major) : Integer.compare(minor, o.minor);
    }

    @Override
    public String toString() {
        return major + "." + minor;
    }
}
