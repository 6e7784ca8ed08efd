package io.strata.redis.commands;

import io.strata.redis.command.ClientSession;
import io.strata.redis.command.ServerContext;
import io.strata.redis.protocol.RedisException;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * Who may connect: checks a user name and password for AUTH and HELLO AUTH. Today there is one
 * user, {@code default}, whose password is {@code requirepass} (none: any password passes);
 * ACL users extend {@link #check} with a lookup of the named user, and every caller stays as
 * it is.
 *
 * <p>Passwords compare as bytes (a binary password such as {@code abc\x00def} works) and in
 * constant time.
 */
final class Authentication {
    static final String DEFAULT_USER = "default";
    static final String WRONGPASS = "WRONGPASS invalid username-password pair or user is disabled.";

    private Authentication() {
    }

    /** Authenticates {@code session} as {@code user}, or throws WRONGPASS. */
    static void authenticate(ServerContext server, ClientSession session, byte[] user, byte[] password) {
        String name = new String(user, StandardCharsets.UTF_8);
        if (!check(server, name, password)) {
            throw new RedisException(WRONGPASS);
        }
        session.authenticate(name);
    }

    /** Whether {@code password} is {@code user}'s. */
    static boolean check(ServerContext server, String user, byte[] password) {
        if (!DEFAULT_USER.equals(user)) {
            return false;
        }
        String required = server.config().requirepass();
        return required == null || MessageDigest.isEqual(required.getBytes(StandardCharsets.UTF_8), password);
    }

    /** Whether a new connection must authenticate before other commands. */
    static boolean required(ServerContext server) {
        return server.config().requirepass() != null;
    }
}
