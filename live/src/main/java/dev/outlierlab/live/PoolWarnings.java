package dev.outlierlab.live;

import dev.outlierlab.engine.envoy.CapRule;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import java.util.ArrayList;
import java.util.List;

/**
 * The settings that cannot work for a pool of its current size, as the {@code check} command reports them for
 * a file (rules {@code cap-admits-no-host-below}, {@code success-rate-too-few-hosts},
 * {@code failure-percentage-too-few-hosts}, and the gateway profile's missing cap): with Envoy's defaults
 * and three hosts, {@code max_ejection_percent} 10 admits no host (Envoy 1.40's rule,
 * {@code DetectorImpl::ejectHost}: {@code 100 * (ejected + 1) / hosts <= max}), so nothing is ever ejected.
 */
final class PoolWarnings {
    private PoolWarnings() {}

    static List<String> envoy(OutlierDetectionConfig c, int hosts) {
        List<String> out = new ArrayList<>();
        if (hosts < 2) {
            return out;
        }
        long max = c.maxEjectionPercent();
        if (!CapRule.ACTIVE_PLUS_ONE.allows(0, hosts, max, c.alwaysEjectOneHost())) {
            long needed = (100 + hosts - 1) / hosts;
            out.add("cap-admits-no-host-below: max_ejection_percent " + max + " admits no host of " + hosts
                    + ": outlier detection never ejects here; set max_ejection_percent to " + needed
                    + " or more, or always_eject_one_host");
        }
        volume(
                out,
                c,
                hosts,
                OutlierSetting.ENFORCING_SUCCESS_RATE,
                OutlierSetting.SUCCESS_RATE_MINIMUM_HOSTS,
                "success-rate-too-few-hosts",
                "success rate");
        volume(
                out,
                c,
                hosts,
                OutlierSetting.ENFORCING_FAILURE_PERCENTAGE,
                OutlierSetting.FAILURE_PERCENTAGE_MINIMUM_HOSTS,
                "failure-percentage-too-few-hosts",
                "failure percentage");
        return out;
    }

    private static void volume(
            List<String> out,
            OutlierDetectionConfig c,
            int hosts,
            OutlierSetting enforcing,
            OutlierSetting minimumHosts,
            String rule,
            String what) {
        long min = c.get(minimumHosts);
        if (c.get(enforcing) > 0 && hosts < min) {
            out.add(rule + ": " + what + " needs " + minimumHosts.envoyName() + " " + min + " hosts with enough "
                    + "requests and the pool has " + hosts + ": it never runs; lower " + minimumHosts.envoyName());
        }
    }

    static List<String> gateway(int maxEjectionPercent, int endpoints) {
        if (maxEjectionPercent >= 100 && endpoints >= 3) {
            return List.of("gateway-no-cap: the gateway profile has no cap: " + (endpoints - 1) + " of " + endpoints
                    + " endpoints can be ejected at once and all traffic go to the last; set "
                    + "LivePoolBuilder.maxEjectionPercent (such as 50)");
        }
        return List.of();
    }
}
