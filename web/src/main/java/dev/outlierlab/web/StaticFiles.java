package dev.outlierlab.web;

import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * The page's files, read from the classpath: the lab under {@code web/}, and uPlot from its WebJar under
 * {@code /webjars/uplot/}, with the version read from the WebJar itself so the page's links never name it.
 */
final class StaticFiles {
    private static final String ROOT = "web/";
    private static final String UPLOT_PREFIX = "/webjars/uplot/";
    private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*(/[A-Za-z0-9][A-Za-z0-9._-]*)*");
    private static final Map<String, String> TYPES = Map.of(
            "html", "text/html; charset=utf-8",
            "js", "text/javascript; charset=utf-8",
            "css", "text/css; charset=utf-8",
            "svg", "image/svg+xml",
            "png", "image/png",
            "json", "application/json; charset=utf-8",
            "ico", "image/x-icon");

    /** A file to send. */
    record File(byte[] body, String contentType) {}

    private final ClassLoader loader = StaticFiles.class.getClassLoader();
    private final String uplotRoot;

    StaticFiles() {
        this.uplotRoot = "META-INF/resources/webjars/uplot/" + webJarVersion("org.webjars.npm", "uplot") + "/";
    }

    /** The file for a request path, or null if there is none. */
    File find(String path) throws IOException {
        String resource;
        if (path.equals("/") || path.equals("/index.html")) {
            resource = ROOT + "index.html";
        } else if (path.startsWith(UPLOT_PREFIX)
                && SAFE.matcher(path.substring(UPLOT_PREFIX.length())).matches()) {
            resource = uplotRoot + path.substring(UPLOT_PREFIX.length());
        } else if (path.length() > 1 && SAFE.matcher(path.substring(1)).matches()) {
            resource = ROOT + path.substring(1);
        } else {
            return null;
        }
        if (resource.contains("..")) {
            return null;
        }
        try (InputStream in = loader.getResourceAsStream(resource)) {
            if (in == null) {
                return null;
            }
            return new File(in.readAllBytes(), contentType(resource));
        }
    }

    private static String contentType(String resource) {
        int dot = resource.lastIndexOf('.');
        String ext = dot < 0 ? "" : resource.substring(dot + 1).toLowerCase(Locale.ROOT);
        return TYPES.getOrDefault(ext, "application/octet-stream");
    }

    private String webJarVersion(String group, String artifact) {
        String props = "META-INF/maven/" + group + "/" + artifact + "/pom.properties";
        try (InputStream in = loader.getResourceAsStream(props)) {
            if (in == null) {
                throw new IllegalStateException("the " + artifact + " WebJar is not on the classpath (" + props + ")");
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version");
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + props, e);
        }
    }
}
