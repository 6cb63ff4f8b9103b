package dev.outlierlab.cli.proxies;

import dev.outlierlab.check.CheckInputs;
import dev.outlierlab.check.proxies.NginxChecks;
import dev.outlierlab.cli.CheckFile;
import dev.outlierlab.config.nginx.NginxUpstreamReader;
import dev.outlierlab.engine.profile.Profile;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/** nginx's passive checks in the command line: {@code check nginx.conf}. */
public final class NginxCommands implements Profile, CheckFile {
    private static final Pattern UPSTREAM = Pattern.compile("(?m)^\\s*upstream\\s+[^\\s{;]+\\s*\\{");
    private static final Pattern NAME = Pattern.compile("nginx[^/]*\\.conf");

    @Override
    public String name() {
        return "nginx";
    }

    @Override
    public int rank() {
        return 100;
    }

    @Override
    public boolean recognises(String text, String source) {
        return NAME.matcher(fileName(source)).matches() || UPSTREAM.matcher(text).find();
    }

    @Override
    public CheckInputs.Loaded check(String text, String source) {
        return new CheckInputs.Loaded(List.of(), NginxChecks.forUpstream(NginxUpstreamReader.readText(text, source,
                null)));
    }

    static String fileName(String source) {
        Path name = Path.of(source).getFileName();
        return name == null ? "" : name.toString();
    }
}
