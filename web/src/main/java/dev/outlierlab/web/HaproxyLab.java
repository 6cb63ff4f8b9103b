package dev.outlierlab.web;

import dev.outlierlab.config.haproxy.HaproxyBackend;
import dev.outlierlab.config.haproxy.HaproxyBlock;
import dev.outlierlab.config.haproxy.HaproxyScenarioFormat;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.report.proxies.ServerRun;
import dev.outlierlab.report.proxies.ServerRuns;
import java.util.List;
import java.util.Map;

/** HAProxy's {@code observe} / {@code error-limit} / {@code on-error} in the browser lab (docs/haproxy.md). */
public final class HaproxyLab extends ServerLab {
    @Override
    public String name() {
        return HaproxyScenarioFormat.NAME;
    }

    @Override
    ServerRun simulate(ScenarioReader.Profiled profiled) {
        return ServerRuns.haproxy(profiled, "outlier-lab lab", null);
    }

    @Override
    Map<String, Object> block(ScenarioReader.Profiled profiled) {
        HaproxyBackend b = profiled.settings(HaproxyBackend.class);
        return HaproxyBlock.toMap(b.name(), b.servers());
    }

    @Override
    Map<String, Object> comparedBlock() {
        return Map.of("check", true, "observe", "layer7");
    }

    @Override
    String comparedAbout() {
        return "HAProxy's passive mode as usually switched on: check and observe layer7 at their defaults (error-limit 10, on-error fail-check), the health endpoint answering";
    }

    @Override
    List<Control> controls() {
        return List.of(
                new Control("check", "boolean", true, "active health checks; without them observe never acts"),
                new Control("observe", "choice", "none", "what the traffic tells: none, layer4 or layer7"),
                new Control("error_limit", "integer", 10, "consecutive errors that trigger on_error"),
                new Control(
                        "on_error",
                        "choice",
                        "fail-check",
                        "what a trip does: fastinter, fail-check, sudden-death or mark-down"),
                new Control("inter", "duration", "2s", "time between active checks"),
                new Control("fastinter", "duration", "0s", "time between checks while changing state (0: inter)"),
                new Control("downinter", "duration", "0s", "time between checks while down (0: inter)"),
                new Control("rise", "integer", 2, "passing checks in a row that bring a server back"),
                new Control("fall", "integer", 3, "failing checks in a row that take it down"));
    }
}
