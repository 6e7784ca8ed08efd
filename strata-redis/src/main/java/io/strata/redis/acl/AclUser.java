package io.strata.redis.acl;

import java.util.ArrayList;
import java.util.List;

/**
 * A user: its name, whether it may log in ({@code on}/{@code off}), its passwords (SHA-256 in
 * lower-case hex, as Redis keeps them) or {@code nopass}, the payload-sanitizing flag of RESTORE,
 * and its selectors, the root one first.
 *
 * <p>Concurrency: rules are applied to a {@link #copy} on one thread; a user that has been
 * published ({@link AccessControl}'s snapshot) is never changed again, so any thread may read it.
 */
final class AclUser {
    /** Neither flag set (a user as created). */
    static final int SANITIZE_UNSET = 0;
    static final int SANITIZE = 1;
    static final int SANITIZE_SKIP = 2;

    final String name;
    boolean enabled;
    boolean nopass;
    int sanitize = SANITIZE_UNSET;
    final List<String> passwords = new ArrayList<>();
    final List<AclSelector> selectors = new ArrayList<>();

    AclUser(String name, boolean allChannelsByDefault) {
        this.name = name;
        selectors.add(new AclSelector(true, allChannelsByDefault));
    }

    private AclUser(String name) {
        this.name = name;
    }

    AclSelector root() {
        return selectors.get(0);
    }

    AclUser copy() {
        return copyAs(name);
    }

    AclUser copyAs(String newName) {
        AclUser c = new AclUser(newName);
        c.enabled = enabled;
        c.nopass = nopass;
        c.sanitize = sanitize;
        c.passwords.addAll(passwords);
        for (AclSelector s : selectors) {
            c.selectors.add(s.copy());
        }
        return c;
    }
}
