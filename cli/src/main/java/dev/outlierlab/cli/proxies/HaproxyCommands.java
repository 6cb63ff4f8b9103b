package dev.outlierlab.cli.proxies;

import dev.outlierlab.check.CheckInputs;
import dev.outlierlab.check.proxies.HaproxyChecks;
import dev.outlierlab.cli.CheckFile;
import dev.outlierlab.config.haproxy.HaproxyConfigReader;
import dev.outlierlab.engine.profile.Profile;
import java.util.List;
import java.util.regex.Pattern;

/** HAProxy's observe/on-error checks in the command line: {@code check haproxy.cfg}. */
public final class HaproxyCommands implements Profile, CheckFile {
    private static final Pattern SECTION = Pattern.compile("(?m)^\\s*(backend|listen)\\s+\\S+\\s*$");
    private static final Pattern SERVER = Pattern.compile("(?m)^\\s+server\\s+\\S+\\s+\\S+");
    private static final Pattern NAME = Pattern.compile("haproxy[^/]*\\.cfg");

    @Override
    public String name() {
        return "haproxy";
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
        return new CheckInputs.Loaded(List.of(), HaproxyChecks.forBackend(HaproxyConfigReader.readText(text, source,
                null), source));
    }
}
