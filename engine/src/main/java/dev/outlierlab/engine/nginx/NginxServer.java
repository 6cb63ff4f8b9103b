package dev.outlierlab.engine.nginx;

import dev.outlierlab.engine.InvalidConfigException;

/**
 * One {@code server} line of an nginx {@code upstream} block, as nginx's server directive parser reads it
 * ({@code ngx_http_upstream_server} in {@code src/http/ngx_http_upstream.c}): the address as written, its
 * {@code weight} (default 1), {@code max_fails} (default 1; 0 turns failure accounting off), {@code fail_timeout}
 * in whole seconds (default 10), {@code down} and {@code backup}.
 *
 * <p>A {@code backup} server is in a second set of peers of its own ({@code ngx_http_upstream_init_round_robin} in
 * {@code src/http/ngx_http_upstream_round_robin.c} builds {@code peers->next} from the backup lines, with their own
 * weights, {@code max_fails} and {@code fail_timeout}); a request goes to it only when no primary server may be
 * selected for its try ({@link RoundRobinPeers#get}).
 *
 * @param name               the address as written ({@code 10.0.0.1:8080}), the lab's host name
 * @param weight             {@code weight=}, 1 or more
 * @param maxFails           {@code max_fails=}, 0 or more
 * @param failTimeoutSeconds {@code fail_timeout=} in seconds (nginx keeps it as {@code time_t}), 0 or more
 * @param down               {@code down}: never selected and not counted in the tries
 * @param backup             {@code backup}: selected only when no primary server may be
 */
public record NginxServer(
        String name, int weight, int maxFails, long failTimeoutSeconds, boolean down, boolean backup) {
    /** nginx's defaults for a server line with only an address. */
    public static final int DEFAULT_MAX_FAILS = 1;

    public static final long DEFAULT_FAIL_TIMEOUT_SECONDS = 10;
    /** The largest {@code fail_timeout} the lab accepts, a year (nginx itself takes any {@code time_t}). */
    public static final long MAX_FAIL_TIMEOUT_SECONDS = 366L * 24 * 3600;

    public NginxServer {
        if (name == null || name.isBlank()) {
            throw new InvalidConfigException("nginx.server", "\"\"", "an address such as 10.0.0.1:8080");
        }
        if (weight < 1) {
            throw new InvalidConfigException(
                    "nginx.server.weight", Integer.toString(weight), "a whole number of 1 or more");
        }
        if (maxFails < 0) {
            throw new InvalidConfigException(
                    "nginx.server.max_fails",
                    Integer.toString(maxFails),
                    "a whole number of 0 or more (0 turns failure accounting off)");
        }
        if (failTimeoutSeconds < 0 || failTimeoutSeconds > MAX_FAIL_TIMEOUT_SECONDS) {
            throw new InvalidConfigException(
                    "nginx.server.fail_timeout",
                    failTimeoutSeconds + "s",
                    "whole seconds from 0 to " + MAX_FAIL_TIMEOUT_SECONDS);
        }
    }

    /** A primary (not {@code backup}) server line. */
    public NginxServer(String name, int weight, int maxFails, long failTimeoutSeconds, boolean down) {
        this(name, weight, maxFails, failTimeoutSeconds, down, false);
    }

    /** A server line with only an address: weight 1, max_fails 1, fail_timeout 10 s. */
    public static NginxServer of(String name) {
        return new NginxServer(name, 1, DEFAULT_MAX_FAILS, DEFAULT_FAIL_TIMEOUT_SECONDS, false);
    }

    public NginxServer withMaxFails(int value) {
        return new NginxServer(name, weight, value, failTimeoutSeconds, down, backup);
    }

    public NginxServer withFailTimeoutSeconds(long value) {
        return new NginxServer(name, weight, maxFails, value, down, backup);
    }

    public NginxServer withWeight(int value) {
        return new NginxServer(name, value, maxFails, failTimeoutSeconds, down, backup);
    }

    public NginxServer withBackup(boolean value) {
        return new NginxServer(name, weight, maxFails, failTimeoutSeconds, down, value);
    }
}
