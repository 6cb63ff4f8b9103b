package dev.outlierlab.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * What {@code --version} prints, for the top-level command and every subcommand alike: the project's version and
 * commit (from the build), the rules the lab implements and the Java runtime that runs it (a release archive's or
 * package's own runtime, or the machine's).
 */
public final class VersionText implements IVersionProvider {
    /** The project's version as the build wrote it, e.g. {@code 0.1.0-SNAPSHOT}. */
    static String version() {
        return property("version");
    }

    /** The commit the jar was built from ({@code git describe}, {@code -dirty} for uncommitted changes). */
    static String commit() {
        return property("commit");
    }

    private static String property(String key) {
        Properties p = new Properties();
        try (InputStream in = VersionText.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            return "unknown";
        }
        String v = p.getProperty(key, "").strip();
        return v.isEmpty() || v.startsWith("${") ? "unknown" : v;
    }

    @Override
    public String[] getVersion() {
        return new String[] {
            "outlier-lab " + version() + " (commit " + commit() + ")",
            "rules: Envoy 1.26 to 1.40 (default 1.40.2), gRPC (java, go, core), the gateway stage, "
                    + "nginx, HAProxy and Caddy passive checks",
            "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ") in "
                    + System.getProperty("java.home")
        };
    }
}
