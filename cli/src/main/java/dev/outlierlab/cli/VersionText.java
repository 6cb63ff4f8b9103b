package dev.outlierlab.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * What {@code --version} prints, for the top-level command and every subcommand alike: the project's version (from
 * the build) and the rules the lab implements.
 */
public final class VersionText implements IVersionProvider {
    /** The project's version as the build wrote it, e.g. {@code 0.1.0-SNAPSHOT}. */
    static String version() {
        Properties p = new Properties();
        try (InputStream in = VersionText.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            return "unknown";
        }
        String v = p.getProperty("version", "unknown");
        return v.startsWith("${") ? "unknown" : v;
    }

    @Override
    public String[] getVersion() {
        return new String[] {"outlier-lab " + version(),
            "rules: Envoy 1.26 to 1.40 outlier detection (default 1.40.2), the gateway ejection stage",
            "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")"};
    }
}
