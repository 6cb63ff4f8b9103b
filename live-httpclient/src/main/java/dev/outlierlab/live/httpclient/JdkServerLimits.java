package dev.outlierlab.live.httpclient;

/**
 * The JDK HTTP server's limits for the JDK servers of this module (the loopback upstream), set before
 * the first server is made: the JDK reads them once, when its server is first used, so a server created before
 * them would leave every later one without. A value given on the command line wins. The proxy and the lab
 * server ({@code serve}) run on a {@code BoundedHttpServer} with the same values.
 */
final class JdkServerLimits {
    static {
        setIfAbsent("sun.net.httpserver.maxReqTime", Integer.toString(ReverseProxy.REQUEST_SECONDS));
        setIfAbsent("sun.net.httpserver.maxRspTime", Integer.toString(ReverseProxy.RESPONSE_SECONDS));
        setIfAbsent("jdk.httpserver.maxConnections", Integer.toString(ReverseProxy.MAX_CONNECTIONS));
        // the server writes an answer's headers and body apart: without TCP_NODELAY a keep-alive client waits
        // for the delayed ACK, about 40 ms an answer
        setIfAbsent("sun.net.httpserver.nodelay", "true");
    }

    private JdkServerLimits() {}

    /** Makes sure the limits are set (the class's initialisation does it, once). */
    static void ensure() {
        // initialising the class is the work
    }

    private static void setIfAbsent(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }
}
