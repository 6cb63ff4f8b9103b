package dev.outlierlab.engine;

/**
 * A setting whose value Envoy (or the lab model) does not accept. Carries the key, the offending value
 * and what is allowed, so that every front end can tell the user exactly what to change.
 */
public final class InvalidConfigException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String key;
    private final String value;
    private final String allowed;

    public InvalidConfigException(String key, String value, String allowed) {
        super(key + ": " + value + " is not allowed; expected " + allowed);
        this.key = key;
        this.value = value;
        this.allowed = allowed;
    }

    public String key() {
        return key;
    }

    public String value() {
        return value;
    }

    public String allowed() {
        return allowed;
    }
}
