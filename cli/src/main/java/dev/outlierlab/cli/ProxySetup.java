package dev.outlierlab.cli;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.scenario.GatewayScenarioFormat;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.engine.profile.Profiles;
import dev.outlierlab.live.LivePoolBuilder;
import dev.outlierlab.live.httpclient.StageLog;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/** What {@code proxy} is built from: its upstreams, its pool from a profile's settings, its stage log. */
final class ProxySetup {
    /** The profile of a proxy without --profile or a settings file. */
    static final String DEFAULT_PROFILE = GatewayScenarioFormat.NAME;

    private ProxySetup() {}

    /**
     * The pool from a scenario document of either profile (the lab's own reader): the settings file if any,
     * then {@code --profile} (gateway when neither it nor a file says otherwise), then {@code --set}.
     */
    static LivePoolBuilder builder(String profile, Path settingsFile, List<String> sets) {
        List<String> all = new ArrayList<>();
        if (profile != null
                && Profiles.find(profile).flatMap(p -> p.facet(ProxyPool.class)).isEmpty()) {
            throw new InputException("--profile: \"" + profile + "\" is not allowed; use " + proxyProfiles());
        }
        if (profile != null) {
            all.add("profile=" + profile);
        } else if (settingsFile == null) {
            all.add("profile=" + DEFAULT_PROFILE);
        }
        all.addAll(sets);
        ScenarioReader.Profiled read = settingsFile == null
                ? ScenarioReader.defaultsProfiled(all)
                : ScenarioReader.readProfiled(InputFiles.readText(settingsFile), settingsFile.toString(), all);
        return read.profile()
                .facet(ProxyPool.class)
                .orElseThrow(() -> new InputException((settingsFile == null ? "--set" : settingsFile.toString())
                        + ": profile " + read.name() + " has no live pool; use "
                        + proxyProfiles()))
                .builder("proxy", read);
    }

    /** The profiles a proxy can run, its default first: {@code gateway or envoy}. */
    private static String proxyProfiles() {
        List<String> names = new ArrayList<>(List.of(DEFAULT_PROFILE));
        Profiles.withFacet(ProxyPool.class).stream()
                .map(p -> p.name())
                .filter(n -> !n.equals(DEFAULT_PROFILE))
                .forEach(names::add);
        return Profiles.orList(names);
    }

    /** The upstreams of {@code --upstream NAME=URL}, in order; each name once, each URL http or https. */
    static Map<String, URI> upstreams(List<String> upstreams) {
        Map<String, URI> targets = new LinkedHashMap<>();
        if (upstreams.size() > 1000) {
            throw new InputException("--upstream: " + upstreams.size() + " upstreams; at most 1000");
        }
        for (String u : upstreams) {
            int eq = u.indexOf('=');
            String name = eq > 0 ? u.substring(0, eq).trim() : "";
            String url = eq > 0 ? u.substring(eq + 1).trim() : "";
            URI uri;
            try {
                uri = URI.create(url);
            } catch (IllegalArgumentException e) {
                uri = null;
            }
            if (name.isEmpty()
                    || uri == null
                    || uri.getHost() == null
                    || !("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))) {
                throw new InputException("--upstream: \"" + u + "\" is not NAME=URL with an http or https URL, "
                        + "e.g. a=http://127.0.0.1:9001");
            }
            if (targets.put(name, uri) != null) {
                throw new InputException(
                        "--upstream: the name " + name + " is given twice; each upstream needs its own name");
            }
        }
        return targets;
    }

    /** The stage log appended to {@code stagesFile}, or null without one. */
    static StageLog openStageLog(Path stagesFile) {
        if (stagesFile == null) {
            return null;
        }
        try {
            return new StageLog(Files.newBufferedWriter(
                    stagesFile, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND));
        } catch (IOException e) {
            throw new InputException("--stages: cannot write " + stagesFile + ": " + e.getMessage());
        }
    }

    /** Says on standard error, at once, when the first stage record is lost (the count is in /stats). */
    static Thread watchLosses(StageLog log, PrintWriter err, Path stagesFile) {
        Thread t = new Thread(
                () -> {
                    try {
                        while (log.lost() == 0) {
                            Thread.sleep(200);
                        }
                        err.println("outlier-lab: --stages " + stagesFile + ": cannot write stage records ("
                                + log.firstError().getMessage()
                                + "); they are counted as outlier_lab_proxy_stage_records_lost in "
                                + "/stats and the proxy will exit with status 2");
                        err.flush();
                    } catch (InterruptedException stop) {
                        // the proxy has stopped
                    }
                },
                "outlier-lab-proxy-stage-losses");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** Waits for the stop, then closes the stage log and says whether records were lost (exit 2). */
    static int awaitStop(
            CountDownLatch stopped, Thread hook, Thread lossWatch, StageLog stageLog, Path stagesFile, PrintWriter err)
            throws InterruptedException {
        stopped.await();
        if (lossWatch != null) {
            lossWatch.interrupt();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // The JVM is exiting: the hook has stopped the proxy already.
        }
        if (stageLog != null) {
            try {
                stageLog.close();
            } catch (IOException ignored) {
                // A failed flush was counted when the record was written.
            }
            if (stageLog.lost() > 0) {
                err.println("outlier-lab: --stages " + stagesFile + ": " + stageLog.lost() + " stage record"
                        + (stageLog.lost() == 1 ? "" : "s") + " could not be written ("
                        + stageLog.firstError().getMessage()
                        + ")");
                return Main.EXIT_BAD_INPUT;
            }
        }
        return 0;
    }
}
