package dev.outlierlab.live;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A {@link LivePool}'s current members in routing order, found by name, and published after each change as one
 * immutable list: what {@link LivePool#filter()} routes over, so that a change on another thread cannot shrink the
 * list while the stage walks it. Changed under the pool's lock; read without it.
 */
final class PoolMembership {
    private final CopyOnWriteArrayList<Endpoint> members = new CopyOnWriteArrayList<>();
    private final ConcurrentHashMap<String, Endpoint> byName = new ConcurrentHashMap<>();
    private volatile List<Endpoint> view = List.of();

    /** Under the lock: the id of the next endpoint, never reused within the pool. */
    private int nextId;

    /** Under the lock: the id for a new endpoint. */
    int nextId() {
        return nextId++;
    }

    boolean has(String name) {
        return byName.containsKey(name);
    }

    boolean contains(Endpoint endpoint) {
        return members.contains(endpoint);
    }

    /** Under the lock: adds {@code endpoint} at the end of the routing order and publishes the members. */
    void add(Endpoint endpoint) {
        members.add(endpoint);
        byName.put(endpoint.name(), endpoint);
        view = List.copyOf(members);
    }

    /** Under the lock: removes {@code endpoint} and publishes the members. */
    void remove(Endpoint endpoint) {
        members.remove(endpoint);
        byName.remove(endpoint.name(), endpoint);
        view = List.copyOf(members);
    }

    /** The members as last published, in routing order (a list that does not change). */
    List<Endpoint> view() {
        return view;
    }

    /** The current member with this name, or null. */
    Endpoint named(String name) {
        return byName.get(name);
    }
}
