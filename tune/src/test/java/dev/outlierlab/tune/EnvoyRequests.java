package dev.outlierlab.tune;

import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * The tune request most tests start from: a cluster named search on Envoy's defaults (newest release, panic at 50 %),
 * one caller, one screening seed and one final seed, at most 2 hosts out, no base noise, one thread. A test changes
 * what it is about. Or the request the command's flags give ({@link #fromFlags}), resolved as {@code tune} resolves
 * them.
 */
final class EnvoyRequests {
    private EnvoyRequests() {}

    static TuneRequest.Builder defaults(int hosts, long rps, List<SuiteScenario> suite) {
        return TuneRequest.builder()
                .name("search")
                .hosts(hosts)
                .rps(rps)
                .clients(1)
                .target(EnvoyTarget.ENVOY)
                .envoyVersion(EnvoyVersion.DEFAULT)
                .current(OutlierDetectionConfig.defaults())
                .currentPanicPercent(50)
                .suite(suite)
                .screenSeeds(1)
                .seeds(1)
                .maxEjected(2)
                .baseErrorPpm(0)
                .threads(1);
    }

    /**
     * {@code tune --hosts HOSTS --rps RPS --seeds SEEDS} on {@code threads} threads with every other flag left out: a
     * cluster named svc on Envoy's defaults and the built-in suite, resolved by {@link TuneService#request}.
     */
    static TuneRequest fromFlags(int hosts, long rps, int seeds, int threads) {
        return fromFlags(
                CurrentSettings.defaults("svc", EnvoyTarget.ENVOY, hosts), hosts, rps, "default", seeds, threads);
    }

    /** The same with the current settings given (as {@code --from} reads them) and a suite ({@code --suite}). */
    static TuneRequest fromFlags(CurrentSettings current, int hosts, long rps, String suite, int seeds, int threads) {
        return TuneService.request(new TuneService.Given(
                current,
                hosts,
                rps,
                null,
                null,
                null,
                null,
                suite,
                seeds,
                null,
                0,
                Evaluation.DEFAULT_MAX_ADDED_PER_THOUSAND,
                threads,
                new ArrayList<>()));
    }
}
