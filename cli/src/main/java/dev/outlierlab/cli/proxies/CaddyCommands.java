package dev.outlierlab.cli.proxies;

import dev.outlierlab.check.CheckInputs;
import dev.outlierlab.check.proxies.CaddyChecks;
import dev.outlierlab.cli.CheckFile;
import dev.outlierlab.config.caddy.CaddyBlock;
import dev.outlierlab.config.caddy.CaddyConfigReader;
import dev.outlierlab.config.caddy.CaddyScenarioFormat;
import dev.outlierlab.config.caddy.CaddySettings;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.engine.caddy.CaddyPassiveConfig;
import dev.outlierlab.report.proxies.ServerRun;
import dev.outlierlab.report.proxies.ServerRuns;
import dev.outlierlab.sim.trace.TraceRecord;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Caddy's passive health checks in the command line: {@code check Caddyfile} (or Caddy's JSON),
 * {@code run --caddy Caddyfile}, a {@code profile: caddy} scenario's {@code run}, {@code sweep} and {@code export}.
 */
public final class CaddyCommands extends ServerProfileCommands implements CheckFile {
    private static final Pattern CADDYFILE = Pattern.compile("(?m)^\\s*reverse_proxy(\\s|$)");
    private static final Pattern JSON = Pattern.compile("\"handler\"\\s*:\\s*\"reverse_proxy\"");

    @Override
    public String name() {
        return CaddyScenarioFormat.NAME;
    }

    @Override
    public int rank() {
        return 120;
    }

    @Override
    public boolean recognises(String text, String source) {
        return NginxCommands.fileName(source).startsWith("Caddyfile")
                || CADDYFILE.matcher(text).find()
                || JSON.matcher(text).find();
    }

    @Override
    public CheckInputs.Loaded check(String text, String source) {
        return new CheckInputs.Loaded(
                List.of(), CaddyChecks.forReverseProxy(CaddyConfigReader.readText(text, source), source));
    }

    @Override
    public boolean namedLike(String fileName) {
        return fileName.startsWith("Caddyfile") || fileName.matches("caddy[^/]*\\.json");
    }

    @Override
    public Block block(Path file, String part) {
        CaddySettings s = CaddyConfigReader.read(file);
        return new Block(CaddyBlock.toMap(s.config()), s.notes());
    }

    @Override
    Map<String, Object> blockOf(ScenarioReader.Profiled resolved) {
        return CaddyBlock.toMap(resolved.settings(CaddyPassiveConfig.class));
    }

    @Override
    ServerRun simulate(ScenarioReader.Profiled resolved, String head, Iterator<TraceRecord> trace) {
        return ServerRuns.caddy(resolved, head, trace);
    }
}
