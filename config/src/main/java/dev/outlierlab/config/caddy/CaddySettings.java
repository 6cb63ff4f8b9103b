package dev.outlierlab.config.caddy;

import dev.outlierlab.engine.caddy.CaddyPassiveConfig;
import java.util.List;

/**
 * A Caddy {@code reverse_proxy} read from a Caddyfile or Caddy's JSON.
 *
 * @param config the handler as the lab models it
 * @param line   the line of {@code reverse_proxy} in a Caddyfile, or of the handler's opening brace in JSON
 * @param json   whether it was read from JSON
 * @param notes  what the lab read but does not model
 */
public record CaddySettings(CaddyPassiveConfig config, int line, boolean json, List<String> notes) {}
