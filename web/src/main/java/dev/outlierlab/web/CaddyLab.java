package dev.outlierlab.web;

import dev.outlierlab.config.caddy.CaddyBlock;
import dev.outlierlab.config.caddy.CaddyScenarioFormat;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.engine.caddy.CaddyPassiveConfig;
import dev.outlierlab.report.proxies.ServerRun;
import dev.outlierlab.report.proxies.ServerRuns;
import java.util.List;
import java.util.Map;

/** Caddy's passive health checks in the browser lab (docs/caddy.md). */
public final class CaddyLab extends ServerLab {
    @Override
    public String name() {
        return CaddyScenarioFormat.NAME;
    }

    @Override
    ServerRun simulate(ScenarioReader.Profiled profiled) {
        return ServerRuns.caddy(profiled, "outlier-lab lab", null);
    }

    @Override
    Map<String, Object> block(ScenarioReader.Profiled profiled) {
        return CaddyBlock.toMap(profiled.settings(CaddyPassiveConfig.class));
    }

    @Override
    Map<String, Object> comparedBlock() {
        return Map.of("fail_duration", "30s", "unhealthy_status", List.of("5xx"));
    }

    @Override
    String comparedAbout() {
        return "Caddy's passive health checks as usually switched on: fail_duration 30s (max_fails then 1) and unhealthy_status 5xx, random selection";
    }

    @Override
    List<Control> controls() {
        return List.of(
                new Control("fail_duration", "duration", "0s", "how long a failure is remembered (0: passive off)"),
                new Control("max_fails", "integer", 1, "failures remembered at once that take an upstream out"),
                new Control("unhealthy_status", "statuses", List.of(), "statuses that count, such as 5xx or 503"),
                new Control("lb_try_duration", "duration", "0s", "how long to retry a failed dial (0: never)"),
                new Control("lb_try_interval", "duration", "250ms", "wait between tries"),
                new Control("lb_policy", "choice", "random", "random, first or round_robin"));
    }
}
