package dev.outlierlab.config.haproxy;

import dev.outlierlab.engine.haproxy.HaproxyServer;
import java.util.List;

/**
 * A HAProxy backend as a {@code profile: haproxy} scenario runs it: its name and its servers in order.
 *
 * @param name    the backend's name
 * @param servers its servers, each with its check and observe options
 */
public record HaproxyBackend(String name, List<HaproxyServer> servers) {
    public HaproxyBackend {
        servers = List.copyOf(servers);
    }

    /** The servers' addresses in order: the lab's host names. */
    public List<String> hosts() {
        return servers.stream().map(HaproxyServer::address).toList();
    }
}
