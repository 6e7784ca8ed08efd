package io.strata.redis.acl;

/** ACL SETUSER's error (without the {@code ERR} code), e.g. {@code Error in ACL SETUSER modifier '~x': ...}. */
public final class AclSetUserException extends Exception {
    AclSetUserException(String message) {
        super(message, null, false, false);
    }
}
