package dev.outlierlab.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.Wording;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.report.Numbers;
import dev.outlierlab.sim.RunWatcher;
import dev.outlierlab.tune.CurrentSettings;
import dev.outlierlab.tune.DefaultSuite;
import dev.outlierlab.tune.Target;
import dev.outlierlab.tune.TuneJson;
import dev.outlierlab.tune.TuneRequest;
import dev.outlierlab.tune.Tuner;
import java.util.Iterator;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code POST /api/tune}: the Tune view's search, {@code outlier-lab tune} with the built-in suite for a cluster given
 * as JSON ({@code hosts}, {@code rps}, {@code clients}, {@code target}, {@code envoy_version}, {@code seeds},
 * {@code max_ejected}), answered with the same JSON as {@code tune --format json}. The lab bounds it: at most
 * {@link #MAX_HOSTS} hosts, {@link #MAX_SEEDS} seeds and {@link #MAX_UNITS} request-equivalents of work, on one
 * thread per simulation slot; a larger search is for the command line.
 */
final class TuneApi {
    static final int MAX_HOSTS = 50;
    static final int MAX_SEEDS = 8;
    /** About 40 s of one core at 18 million simulated requests a second. */
    static final long MAX_UNITS = 750_000_000L;

    private static final Set<String> KEYS =
            Set.of("hosts", "rps", "clients", "target", "envoy_version", "seeds", "max_ejected");
    /** Strict: a second value after the object ({@code {...} garbage}) and a key given twice are refused. */
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private TuneApi() {}

    static byte[] tune(String body, RunWatcher watcher) {
        TuneRequest req = request(body);
        long units = Tuner.plannedUnits(req);
        if (units > MAX_UNITS) {
            throw ApiException.badRequest(
                    "this search is " + Numbers.count(units) + " request-equivalents of work, over "
                            + "the lab's limit of " + Numbers.count(MAX_UNITS)
                            + "; use fewer hosts, a lower rps or fewer seeds, "
                            + "or run `outlier-lab tune` on the command line");
        }
        long[] done = {0};
        return LabApi.write(TuneJson.tree(Tuner.tune(req, u -> {
            synchronized (done) {
                done[0] += u;
                watcher.progress(done[0], units);
            }
        })));
    }

    static TuneRequest request(String body) {
        JsonNode tree;
        try {
            tree = MAPPER.readTree(body);
        } catch (JsonProcessingException e) {
            throw ApiException.badRequest("malformed JSON: " + Wording.shortPrefix(e.getOriginalMessage()));
        }
        if (tree == null || !tree.isObject()) {
            throw ApiException.badRequest("a tune request is a JSON object such as {\"hosts\": 6, \"rps\": 600}");
        }
        for (Iterator<String> it = tree.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!KEYS.contains(key)) {
                throw ApiException.badRequest("unknown key '" + Wording.shortPrefix(key) + "'; a tune request has "
                        + String.join(", ", new TreeSet<>(KEYS)));
            }
        }
        int hosts = whole(tree, "hosts", 6, 2, MAX_HOSTS);
        long rps = whole(tree, "rps", 600, 1, 100_000);
        int clients = whole(tree, "clients", 1, 1, (int) Math.min(10_000, rps));
        int seeds = whole(tree, "seeds", 4, 1, MAX_SEEDS);
        int maxEjected = whole(tree, "max_ejected", TuneRequest.defaultMaxEjected(hosts), 1, hosts);
        Target target = tree.has("target") ? Target.byFlag(tree.get("target").asText()) : Target.byDefault();
        EnvoyVersion version = tree.has("envoy_version")
                ? ScenarioReader.envoyVersion(
                        new Located(tree.get("envoy_version").asText(), "envoy_version"))
                : EnvoyVersion.DEFAULT;
        CurrentSettings current = CurrentSettings.defaults("search", target, hosts);
        try {
            return TuneRequest.builder()
                    .name(current.name())
                    .hosts(hosts)
                    .rps(rps)
                    .clients(clients)
                    .target(target)
                    .envoyVersion(version)
                    .current(current.config())
                    .currentPanicPercent(current.panicThresholdPercent())
                    .suite(new DefaultSuite(hosts, rps, clients, 0).scenarios())
                    .screenSeeds(2)
                    .seeds(seeds)
                    .maxEjected(maxEjected)
                    .baseErrorPpm(0)
                    .threads(1)
                    .currentProfile(current.profile())
                    .build();
        } catch (InputException e) {
            throw ApiException.badRequest(e.getMessage());
        }
    }

    private static int whole(JsonNode tree, String key, int otherwise, int min, int max) {
        long v = whole(tree, key, (long) otherwise, min, max);
        return (int) v;
    }

    private static long whole(JsonNode tree, String key, long otherwise, long min, long max) {
        JsonNode n = tree.get(key);
        if (n == null) {
            return otherwise;
        }
        if (!n.canConvertToLong() || !n.isIntegralNumber() || n.asLong() < min || n.asLong() > max) {
            throw ApiException.badRequest(key + ": " + Wording.shortPrefix(n.toString())
                    + " is not allowed; expected a whole number from " + min + " to " + max);
        }
        return n.asLong();
    }
}
