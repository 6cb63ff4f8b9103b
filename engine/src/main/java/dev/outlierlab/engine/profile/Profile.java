package dev.outlierlab.engine.profile;

import java.util.Optional;
import java.util.Set;

/**
 * One detector profile (Envoy's outlier detection, grpc-java's, the gateway's, ...) as every front end sees it:
 * a name, what it can do as a positive set of {@link Capability capabilities}, and its facets, one per layer that
 * needs to know it (the scenario block's reader and writer in {@code config}, the simulation in {@code sim}, the
 * renderers in {@code report}, the search space and target writers in {@code tune}, the pool detector in
 * {@code live}, the controls' description in {@code web}). A facet is an interface of the layer that asks for it;
 * a profile that has no facet of a kind is refused by that layer with a message naming the profiles that have it.
 *
 * <p>A profile is registered once per module that holds one of its parts, with one line in that module's
 * {@code META-INF/services/dev.outlierlab.engine.profile.Profile}; {@link Profiles} joins the parts of one name. A
 * part that implements a facet interface is that facet ({@link #facet} by default); a part may instead hand out
 * other objects.
 */
public interface Profile {
    /** The name a scenario's {@code profile:} key, {@code --profile} and the properties give. */
    String name();

    /**
     * Where the profile stands in lists and messages (lower first): the built-in profiles take 0 to 99, a new one
     * anything above.
     */
    default int rank() {
        return 1000;
    }

    /** What the profile can do; a front end offers an option only to the profiles that list what it needs. */
    default Set<Capability> capabilities() {
        return Set.of();
    }

    /** This part's facet of the given kind: the part itself when it implements it, else none. */
    default <T> Optional<T> facet(Class<T> kind) {
        return kind.isInstance(this) ? Optional.of(kind.cast(this)) : Optional.empty();
    }
}
