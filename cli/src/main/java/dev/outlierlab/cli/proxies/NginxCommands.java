package dev.outlierlab.cli.proxies;

import dev.outlierlab.check.CheckInputs;
import dev.outlierlab.check.Finding;
import dev.outlierlab.check.proxies.NginxChecks;
import dev.outlierlab.cli.CheckFile;
import dev.outlierlab.config.nginx.NginxBlock;
import dev.outlierlab.config.nginx.NginxScenarioFormat;
import dev.outlierlab.config.nginx.NginxSettings;
import dev.outlierlab.config.nginx.NginxUpstreamReader;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.engine.nginx.NginxUpstreamConfig;
import dev.outlierlab.report.proxies.ServerRun;
import dev.outlierlab.report.proxies.ServerRuns;
import dev.outlierlab.sim.trace.TraceRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * nginx's passive checks in the command line: {@code check nginx.conf}, {@code run --nginx nginx.conf}, a
 * {@code profile: nginx} scenario's {@code run}, {@code sweep} and {@code export}.
 */
public final class NginxCommands extends ServerProfileCommands implements CheckFile {
    private static final Pattern UPSTREAM = Pattern.compile("(?m)^\\s*upstream\\s+[^\\s{;]+\\s*\\{");
    private static final Pattern NAME = Pattern.compile("nginx[^/]*\\.conf");

    @Override
    public String name() {
        return NginxScenarioFormat.NAME;
    }

    @Override
    public int rank() {
        return 100;
    }

    @Override
    public boolean recognises(String text, String source) {
        return NAME.matcher(fileName(source)).matches()
                || UPSTREAM.matcher(text).find();
    }

    @Override
    public CheckInputs.Loaded check(String text, String source) {
        return check(text, source, null);
    }

    /** The findings of one upstream ({@code check --upstream NAME}), or of every one. */
    @Override
    public CheckInputs.Loaded check(String text, String source, String upstream) {
        List<String> names = upstream == null ? NginxUpstreamReader.upstreamNames(text, source) : List.of(upstream);
        if (names.size() <= 1) {
            return new CheckInputs.Loaded(
                    List.of(), NginxChecks.forUpstream(NginxUpstreamReader.readText(text, source, upstream)));
        }
        List<Finding> all = new ArrayList<>();
        for (String name : names) {
            all.addAll(NginxChecks.forUpstream(NginxUpstreamReader.readText(text, source, name)));
        }
        return new CheckInputs.Loaded(List.of(), all);
    }

    @Override
    public String partOption() {
        return "--upstream";
    }

    @Override
    public boolean namedLike(String fileName) {
        return NAME.matcher(fileName).matches();
    }

    @Override
    public Block block(Path file, String part) {
        NginxSettings s = NginxUpstreamReader.read(file, part);
        return new Block(NginxBlock.toMap(s.config()), s.notes());
    }

    @Override
    Map<String, Object> blockOf(ScenarioReader.Profiled resolved) {
        return NginxBlock.toMap(resolved.settings(NginxUpstreamConfig.class));
    }

    @Override
    ServerRun simulate(ScenarioReader.Profiled resolved, String head, Iterator<TraceRecord> trace) {
        return ServerRuns.nginx(resolved, head, trace);
    }

    static String fileName(String source) {
        Path name = Path.of(source).getFileName();
        return name == null ? "" : name.toString();
    }
}
