package dev.outlierlab.live.spring.boot;

import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.live.LivePoolBuilder;

/**
 * A profile's facet in the starter: a pool builder from one service's properties
 * ({@code outlier-lab.services.NAME.*}). A profile without this facet is refused by name.
 */
public interface ServicePoolProfile {
    /**
     * The pool's builder for the service's settings; a bad value is refused with the property's whole name
     * ({@code prefix} + its key) through {@link InvalidConfigException}.
     */
    LivePoolBuilder builder(String service, String prefix, OutlierLabProperties.Service properties);

    /** The property, after the service's prefix, that a detector's refused setting {@code key} comes from. */
    default String property(String key) {
        return "settings." + key;
    }
}
