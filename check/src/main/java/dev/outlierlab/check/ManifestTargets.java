package dev.outlierlab.check;

import dev.outlierlab.config.istio.DestinationRuleReader;
import dev.outlierlab.config.istio.IstioConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * Kubernetes manifests for {@code check}: every resource that configures outlier detection becomes targets,
 * translated as its controller translates it; the other documents are skipped, and a file with none of them is
 * a note.
 */
final class ManifestTargets {
    private ManifestTargets() {
    }

    static CheckInputs.Loaded read(String text, String source, Integer port) {
        IstioConfig istio = DestinationRuleReader.read(text, source, port);
        List<CheckTarget> targets = new ArrayList<>(CheckTargets.fromIstio(istio));
        List<Finding> file = new ArrayList<>();
        if (targets.isEmpty()) {
            file.add(Finding.aboutFile(Rule.NOTHING_TO_CHECK, Severity.NOTE, "no resource here configures outlier "
                    + "detection" + (istio.otherKinds().isEmpty() ? "" : " (found " + String.join(", ",
                    istio.otherKinds()) + ")") + ": nothing to check", source, 1));
        }
        return new CheckInputs.Loaded(targets, file);
    }
}
