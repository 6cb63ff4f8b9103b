package dev.outlierlab.check;

import dev.outlierlab.engine.envoy.EnvoyVersion;
import java.util.ArrayList;
import java.util.List;

/**
 * The result of checking one file: every cluster it holds and every finding, in file order, plus the
 * options the numbers depend on. Plain data for the renderers (text, JSON, SARIF).
 *
 * @param hosts the {@code --hosts} given, or null
 * @param rps   the {@code --rps} given, or null
 */
public record CheckReport(String file, List<CheckTarget> targets, List<Finding> findings, Integer hosts, Long rps) {
    public CheckReport {
        targets = List.copyOf(targets);
        findings = List.copyOf(findings);
    }

    /** Checks every target under the default Envoy release's rules. */
    public static CheckReport of(String file, List<CheckTarget> targets, Integer hosts, Long rps) {
        return of(file, targets, hosts, rps, EnvoyVersion.DEFAULT);
    }

    /** Checks every target under the rules of an Envoy release. */
    public static CheckReport of(String file, List<CheckTarget> targets, Integer hosts, Long rps, EnvoyVersion version) {
        List<Finding> all = new ArrayList<>();
        for (CheckTarget t : targets) {
            all.addAll(ConfigChecker.check(t, hosts, rps, version));
        }
        return new CheckReport(file, targets, all, hosts, rps);
    }

    /** 1 when a finding is at or above {@code failOn}, else 0. */
    public int exitCode(Severity failOn) {
        for (Finding f : findings) {
            if (f.severity().atLeast(failOn)) {
                return 1;
            }
        }
        return 0;
    }

    public long count(Severity severity) {
        return findings.stream().filter(f -> f.severity() == severity).count();
    }
}
