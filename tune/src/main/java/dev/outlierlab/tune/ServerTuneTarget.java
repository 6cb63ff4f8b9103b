package dev.outlierlab.tune;

import dev.outlierlab.check.CheckInputs;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import java.util.List;

/**
 * What the targets of a proxy's own file (nginx, HAProxy, Caddy) say alike: their defaults and engine are named after
 * the server, their settings come from the server's file, a file written without {@code --from} has placeholder
 * addresses, and {@code check}'s Envoy reading does not apply to the written file (the server's own findings come
 * from {@code check FILE}).
 */
public abstract class ServerTuneTarget implements Target {
    private final String server;
    private final String block;
    private final String file;

    /**
     * @param server the server's name as a sentence writes it ({@code nginx}, {@code HAProxy}, {@code Caddy})
     * @param block  what the tuned settings belong to, with its article ({@code an nginx upstream})
     * @param file   the file they come from, with its article ({@code an nginx.conf})
     */
    protected ServerTuneTarget(String server, String block, String file) {
        this.server = server;
        this.block = block;
        this.file = file;
    }

    @Override
    public String defaultsLabel() {
        return server + "'s defaults";
    }

    @Override
    public String ownSettingsHint() {
        return " (" + block + "'s settings come from " + file + ", or " + server + "'s defaults without --from)";
    }

    @Override
    public String engineLabel(EnvoyVersion version) {
        return "(" + server + ")";
    }

    @Override
    public boolean placeholdersWithoutFile() {
        return true;
    }

    @Override
    public CheckInputs.Loaded check(String text) {
        return new CheckInputs.Loaded(List.of(), List.of());
    }
}
