package dev.outlierlab.cli.proxies;

import dev.outlierlab.check.CheckInputs;
import dev.outlierlab.check.Finding;
import dev.outlierlab.check.proxies.HaproxyChecks;
import dev.outlierlab.cli.CheckFile;
import dev.outlierlab.config.haproxy.HaproxyBackend;
import dev.outlierlab.config.haproxy.HaproxyBlock;
import dev.outlierlab.config.haproxy.HaproxyConfigReader;
import dev.outlierlab.config.haproxy.HaproxyScenarioFormat;
import dev.outlierlab.config.haproxy.HaproxySettings;
import dev.outlierlab.config.scenario.ScenarioReader;
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
 * HAProxy's observe/on-error checks in the command line: {@code check haproxy.cfg}, {@code run --haproxy}, a
 * {@code profile: haproxy} scenario's {@code run}, {@code sweep} and {@code export}.
 */
public final class HaproxyCommands extends ServerProfileCommands implements CheckFile {
    private static final Pattern SECTION = Pattern.compile("(?m)^\\s*(backend|listen)\\s+\\S+\\s*$");
    private static final Pattern SERVER = Pattern.compile("(?m)^\\s+server\\s+\\S+\\s+\\S+");
    private static final Pattern NAME = Pattern.compile("haproxy[^/]*\\.cfg");

    @Override
    public String name() {
        return HaproxyScenarioFormat.NAME;
    }

    @Override
    public int rank() {
        return 110;
    }

    @Override
    public boolean recognises(String text, String source) {
        return NAME.matcher(NginxCommands.fileName(source)).matches()
                || SECTION.matcher(text).find() && SERVER.matcher(text).find();
    }

    @Override
    public CheckInputs.Loaded check(String text, String source) {
        return check(text, source, null);
    }

    /** The findings of one backend ({@code check --backend NAME}), or of every one. */
    @Override
    public CheckInputs.Loaded check(String text, String source, String backend) {
        List<String> names = backend == null ? HaproxyConfigReader.backendNames(text, source) : List.of(backend);
        if (names.size() <= 1) {
            return new CheckInputs.Loaded(
                    List.of(), HaproxyChecks.forBackend(HaproxyConfigReader.readText(text, source, backend), source));
        }
        List<Finding> all = new ArrayList<>();
        for (String name : names) {
            all.addAll(HaproxyChecks.forBackend(HaproxyConfigReader.readText(text, source, name), source));
        }
        return new CheckInputs.Loaded(List.of(), all);
    }

    @Override
    public String partOption() {
        return "--backend";
    }

    @Override
    public boolean namedLike(String fileName) {
        return NAME.matcher(fileName).matches();
    }

    @Override
    public Block block(Path file, String part) {
        HaproxySettings s = HaproxyConfigReader.read(file, part);
        return new Block(HaproxyBlock.toMap(s.backend(), s.servers()), s.notes());
    }

    @Override
    Map<String, Object> blockOf(ScenarioReader.Profiled resolved) {
        HaproxyBackend b = resolved.settings(HaproxyBackend.class);
        return HaproxyBlock.toMap(b.name(), b.servers());
    }

    @Override
    ServerRun simulate(ScenarioReader.Profiled resolved, String head, Iterator<TraceRecord> trace) {
        return ServerRuns.haproxy(resolved, head, trace);
    }
}
