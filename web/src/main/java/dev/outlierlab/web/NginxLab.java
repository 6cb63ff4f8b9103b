package dev.outlierlab.web;

import dev.outlierlab.config.nginx.NginxBlock;
import dev.outlierlab.config.nginx.NginxScenarioFormat;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.engine.nginx.NginxUpstreamConfig;
import dev.outlierlab.report.proxies.ServerRun;
import dev.outlierlab.report.proxies.ServerRuns;
import java.util.List;
import java.util.Map;

/** nginx's {@code max_fails} / {@code fail_timeout} in the browser lab (docs/nginx.md). */
public final class NginxLab extends ServerLab {
    @Override
    public String name() {
        return NginxScenarioFormat.NAME;
    }

    @Override
    ServerRun simulate(ScenarioReader.Profiled profiled) {
        return ServerRuns.nginx(profiled, "outlier-lab lab", null);
    }

    @Override
    Map<String, Object> block(ScenarioReader.Profiled profiled) {
        return NginxBlock.toMap(profiled.settings(NginxUpstreamConfig.class));
    }

    @Override
    Map<String, Object> comparedBlock() {
        return Map.of();
    }

    @Override
    String comparedAbout() {
        return "nginx's defaults over the same servers: max_fails=1, fail_timeout=10s and proxy_next_upstream error timeout, so a 5xx is no failure; one worker";
    }

    @Override
    List<Control> controls() {
        return List.of(
                new Control("max_fails", "integer", 1, "failures within fail_timeout that take a server out (0: off)"),
                new Control("fail_timeout", "duration", "10s", "whole seconds a server stays out; also the window"),
                new Control(
                        "proxy_next_upstream",
                        "words",
                        List.of("error", "timeout"),
                        "what is retried and counted: error, timeout, http_500, http_502, http_503, http_504, ..."),
                new Control("proxy_next_upstream_tries", "integer", 0, "tries per request (0: every server)"),
                new Control("workers", "integer", 1, "worker processes, each its own detector without zone"),
                new Control("zone", "boolean", false, "one shared detector for every worker"));
    }
}
