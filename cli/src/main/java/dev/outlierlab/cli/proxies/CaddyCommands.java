package dev.outlierlab.cli.proxies;

import dev.outlierlab.check.CheckInputs;
import dev.outlierlab.check.proxies.CaddyChecks;
import dev.outlierlab.cli.CheckFile;
import dev.outlierlab.config.caddy.CaddyConfigReader;
import dev.outlierlab.engine.profile.Profile;
import java.util.List;
import java.util.regex.Pattern;

/** Caddy's passive health checks in the command line: {@code check Caddyfile} (or Caddy's JSON). */
public final class CaddyCommands implements Profile, CheckFile {
    private static final Pattern CADDYFILE = Pattern.compile("(?m)^\\s*reverse_proxy(\\s|$)");
    private static final Pattern JSON = Pattern.compile("\"handler\"\\s*:\\s*\"reverse_proxy\"");

    @Override
    public String name() {
        return "caddy";
    }

    @Override
    public int rank() {
        return 120;
    }

    @Override
    public boolean recognises(String text, String source) {
        return NginxCommands.fileName(source).startsWith("Caddyfile") || CADDYFILE.matcher(text).find()
                || JSON.matcher(text).find();
    }

    @Override
    public CheckInputs.Loaded check(String text, String source) {
        return new CheckInputs.Loaded(List.of(), CaddyChecks.forReverseProxy(CaddyConfigReader.readText(text, source),
                source));
    }
}
