package io.strata.redis.command;

import com.apple.foundationdb.Transaction;
import io.strata.redis.protocol.Reply;

import java.util.concurrent.CompletableFuture;

/**
 * What a command does. A handler of a {@link CommandSpec.Kind#DATA} command runs inside a
 * transaction that the caller owns and may retry: it must be a pure function of the database
 * and its arguments (no effect outside the transaction before it commits), and it must find
 * every error before its first write, so that an error reply inside MULTI/EXEC leaves the
 * other commands' effects and none of its own. A {@link CommandSpec.Kind#LOCAL} handler gets
 * no transaction ({@code tr} is null) and works on the connection or the server.
 */
@FunctionalInterface
public interface CommandHandler {
    CompletableFuture<Reply> execute(Invocation inv, Transaction tr);
}
