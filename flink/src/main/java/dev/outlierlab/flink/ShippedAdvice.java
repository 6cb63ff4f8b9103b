package dev.outlierlab.flink;

import dev.outlierlab.check.EnvoyFilterPatch;
import dev.outlierlab.check.FixAdvice;
import dev.outlierlab.check.FixStyle;
import java.io.Serializable;

/**
 * How the report says its fixes ({@link FixAdvice}: the input's own fields, and the EnvoyFilter patch for a
 * DestinationRule) as plain values the job ships to its workers, which render each detector's section: a
 * replay under {@code --istio} names {@code trafficPolicy.outlierDetection.*} fields on the cluster as it does
 * locally.
 */
record ShippedAdvice(
        FixStyle style, boolean patched, String rule, String namespace, String service, String subset, Integer port)
        implements Serializable {

    static ShippedAdvice of(FixAdvice advice) {
        FixAdvice a = advice == null ? FixAdvice.ENVOY : advice;
        EnvoyFilterPatch p = a.patch();
        return p == null
                ? new ShippedAdvice(a.style(), false, null, null, null, null, null)
                : new ShippedAdvice(a.style(), true, p.rule(), p.namespace(), p.service(), p.subset(), p.port());
    }

    FixAdvice advice() {
        return new FixAdvice(style, !patched ? null : new EnvoyFilterPatch(rule, namespace, service, subset, port));
    }
}
