package dev.outlierlab.config.yaml;

/**
 * A value read from a document together with where it came from, for messages: a file and line, or the
 * {@code --set} option that supplied it.
 *
 * @param value  a String, Long, BigDecimal, Boolean, {@code LinkedHashMap<String, Located>},
 *               {@code ArrayList<Located>}, or null
 * @param origin e.g. {@code scenario.yaml:12}, {@code --set faults[0].error_rate}, or {@code default}
 */
public record Located(Object value, String origin) {}
