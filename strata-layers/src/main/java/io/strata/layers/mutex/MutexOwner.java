package io.strata.layers.mutex;

import java.util.Objects;

/**
 * The holder of a mutex as stored: the client's name and the fencing token of its grant.
 *
 * @param name  the client name the lock was granted to
 * @param token the grant's fencing token; grants of one mutex carry strictly increasing tokens
 */
public record MutexOwner(String name, long token) {
    public MutexOwner {
        Objects.requireNonNull(name);
    }
}
