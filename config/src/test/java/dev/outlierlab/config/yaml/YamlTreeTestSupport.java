package dev.outlierlab.config.yaml;

import com.fasterxml.jackson.databind.ObjectMapper;

/** Test helper: plain maps to JSON text. */
public final class YamlTreeTestSupport {
    private YamlTreeTestSupport() {}

    public static String toJson(Object plain) {
        try {
            return new ObjectMapper().writeValueAsString(plain);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
