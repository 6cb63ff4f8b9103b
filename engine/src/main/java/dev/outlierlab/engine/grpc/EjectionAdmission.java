package dev.outlierlab.engine.grpc;

import dev.outlierlab.engine.RandomSource;
import dev.outlierlab.engine.envoy.CapRule;
import dev.outlierlab.engine.envoy.event.CapCheck;
import dev.outlierlab.engine.envoy.event.Enforcement;

/**
 * Whether an outlier a sweep found is ejected: the cap ({@code max_ejection_percent}) and the enforcement draw, in
 * each implementation's order and arithmetic. grpc-java and grpc-go test the cap first ({@code ejected / hosts * 100
 * >= max} refuses; grpc-go counts every ejection, a second one of the same endpoint included) and draw
 * {@code nextInt(100)} only when it admits; C-core draws {@code absl::Uniform(1, 100)} first and admits while
 * nothing is ejected or the ejected share is under the cap.
 */
record EjectionAdmission(CapCheck cap, Enforcement enforcement) {
    /**
     * @param ejectedCount      endpoints ejected now
     * @param goEjectedCounter  grpc-go's {@code numEndpointsEjected} (ejections counted, returns subtracted)
     * @param enforcing         the algorithm's {@code enforcement_percentage}
     */
    static EjectionAdmission of(
            GrpcImplementation impl,
            int ejectedCount,
            long goEjectedCounter,
            int hosts,
            int max,
            int enforcing,
            RandomSource random) {
        double percent;
        boolean allowed;
        long key = -1;
        boolean enforced;
        if (impl == GrpcImplementation.CORE) {
            // absl::Uniform(bit_gen, 1, 100) is drawn before the cap is tested: 1 to 99, so a percentage of 1 never
            // ejects
            if (enforcing > 1 && enforcing < 100) {
                key = 1 + random.nextModulo(99);
            }
            enforced = enforcing >= 100 || (key >= 0 && key < enforcing);
            percent = 100.0 * ejectedCount / hosts;
            allowed = ejectedCount == 0 || percent < max;
        } else {
            long counted = impl == GrpcImplementation.GO ? goEjectedCounter : ejectedCount;
            percent = ((double) counted / (double) hosts) * 100;
            allowed = !(percent >= max);
            if (allowed && enforcing > 0 && enforcing < 100) {
                key = random.nextModulo(100);
            }
            enforced = enforcing >= 100 || (key >= 0 && key < enforcing);
        }
        CapCheck cap = new CapCheck(
                ejectedCount, hosts, percent, max, impl == GrpcImplementation.CORE, allowed, CapRule.ACTIVE_BELOW_MAX);
        return new EjectionAdmission(cap, new Enforcement(enforcing, key, enforced));
    }

    boolean allowed() {
        return cap.allowed();
    }

    boolean enforced() {
        return enforcement.enforced();
    }
}
