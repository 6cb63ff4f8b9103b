package dev.outlierlab.engine.gateway;

/**
 * What a gateway detector decided: an ejection (prod), a virtual one (shadow: what prod would have done),
 * or a return to rotation at the first look at or after the ejection's end.
 */
public enum GatewayAction {
    EJECT("eject"),
    WOULD_EJECT("would_eject"),
    RETURN("return");

    private final String outputName;

    GatewayAction(String outputName) {
        this.outputName = outputName;
    }

    public String outputName() {
        return outputName;
    }
}
