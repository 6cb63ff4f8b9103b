package dev.outlierlab.engine.profile;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.function.Function;

/**
 * The registry of profiles: every {@link Profile} part on the class path ({@link ServiceLoader}), joined by name.
 * Each layer asks it for its own facet of a profile named in the input ({@link #facet}), or for every profile that has
 * one ({@link #withFacet}); no front end compares profile names.
 */
public final class Profiles {
    private static final class Loaded {
        static final Map<String, Registered> BY_NAME = load(Profiles.class.getClassLoader());
    }

    private Profiles() {}

    /** A profile as registered: its parts, in class-path order, asked in turn for a facet. */
    public static final class Registered implements Profile {
        private final String name;
        private final List<Profile> parts;

        Registered(String name, List<Profile> parts) {
            this.name = name;
            this.parts = List.copyOf(parts);
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public int rank() {
            return parts.stream().mapToInt(Profile::rank).min().orElse(1000);
        }

        /** The union of what its parts declare. */
        @Override
        public Set<Capability> capabilities() {
            EnumSet<Capability> all = EnumSet.noneOf(Capability.class);
            for (Profile p : parts) {
                all.addAll(p.capabilities());
            }
            return Set.copyOf(all);
        }

        public boolean can(Capability capability) {
            return capabilities().contains(capability);
        }

        @Override
        public <T> Optional<T> facet(Class<T> kind) {
            for (Profile p : parts) {
                Optional<T> f = p.facet(kind);
                if (f.isPresent()) {
                    return f;
                }
            }
            return Optional.empty();
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static Map<String, Registered> load(ClassLoader loader) {
        Map<String, List<Profile>> parts = new LinkedHashMap<>();
        for (Profile p : ServiceLoader.load(Profile.class, loader)) {
            parts.computeIfAbsent(p.name(), n -> new ArrayList<>()).add(p);
        }
        List<Registered> all = new ArrayList<>();
        parts.forEach((name, list) -> all.add(new Registered(name, list)));
        all.sort(Comparator.comparingInt(Registered::rank).thenComparing(Registered::name));
        Map<String, Registered> out = new LinkedHashMap<>();
        for (Registered r : all) {
            out.put(r.name(), r);
        }
        return Collections.unmodifiableMap(out);
    }

    /** Every profile, in rank order. */
    public static List<Registered> all() {
        return List.copyOf(Loaded.BY_NAME.values());
    }

    /** The profile of this name, if one is registered. */
    public static Optional<Registered> find(String name) {
        return Optional.ofNullable(Loaded.BY_NAME.get(name));
    }

    /** Every profile that has a facet of this kind, in rank order. */
    public static List<Registered> withFacet(Class<?> kind) {
        return all().stream().filter(p -> p.facet(kind).isPresent()).toList();
    }

    /** The names of the profiles that have a facet of this kind, for messages: {@code envoy, grpc or gateway}. */
    public static String namesWith(Class<?> kind) {
        return orList(withFacet(kind).stream().map(Profile::name).toList());
    }

    /** The names of the profiles that can do this, for messages. */
    public static String namesThatCan(Capability capability) {
        return orList(
                all().stream().filter(p -> p.can(capability)).map(Profile::name).toList());
    }

    /**
     * The facet of this kind of the profile named {@code name}; an unknown name, or a profile without that facet, gives
     * the exception {@code refusal} makes of the names that have one.
     */
    public static <T> T facet(String name, Class<T> kind, Function<String, RuntimeException> refusal) {
        Registered p = Loaded.BY_NAME.get(name);
        Optional<T> f = p == null ? Optional.empty() : p.facet(kind);
        if (f.isEmpty()) {
            throw refusal.apply(namesWith(kind));
        }
        return f.get();
    }

    /** {@code a}, {@code a or b}, {@code a, b or c}. */
    public static String orList(List<String> names) {
        if (names.isEmpty()) {
            return "(none)";
        }
        if (names.size() == 1) {
            return names.get(0);
        }
        return String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1);
    }
}
