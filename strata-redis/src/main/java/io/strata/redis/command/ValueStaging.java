package io.strata.redis.command;

import io.strata.redis.keyspace.LargeValues;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Stages the string values of requests that are too large for one transaction before the
 * requests run, and releases them after ({@link LargeValues} has the argument). Only the
 * value arguments of the commands that store an argument whole as a string qualify: SET,
 * SETNX, GETSET (argument 2), SETEX, PSETEX (3), MSET, MSETNX (2, 4, ...) — and arguments a
 * command declares to stand for a string ({@link CommandTable#stagesValueOf}: RESTORE's
 * payload of a large string) or for another value its own stager writes
 * ({@link CommandTable#stagesObjectOf}: RESTORE's big collections, COPY's and MOVE's big
 * sources). Other commands refuse such values with an error, as before.
 *
 * <p>Values are staged in the database the connection has selected when the request runs;
 * a value that a MULTI block stores after a SELECT into another database is refused.
 */
final class ValueStaging {
    /** Arguments above this size are staged: what one transaction carries with room to spare. */
    static final int STAGE_ABOVE = LargeValues.MAX_IN_TRANSACTION;
    /** Where a command's value arguments are: the first, and the step to the next (0: only one). */
    private record ValuePositions(int first, int step) {
    }

    private static final Map<String, ValuePositions> VALUES = Map.of(
            "set", new ValuePositions(2, 0), "setnx", new ValuePositions(2, 0), "getset", new ValuePositions(2, 0),
            "setex", new ValuePositions(3, 0), "psetex", new ValuePositions(3, 0),
            "mset", new ValuePositions(2, 2), "msetnx", new ValuePositions(2, 2));

    /** The server's, which exists once it has registered its commands (after this is built). */
    private final Supplier<CommandTable> commands;

    ValueStaging(Supplier<CommandTable> commands) {
        this.commands = commands;
    }

    /**
     * Runs {@code work} once the large values among {@code requests} are staged in database
     * {@code db} of the keyspace of {@code server} (the requests' session's context); releases
     * them when it is done, before its result is passed on. Without large values, runs it at
     * once.
     */
    <T> CompletableFuture<T> around(ServerContext server, List<byte[][]> requests, int db, Supplier<CompletableFuture<T>> work) {
        // The session's context: with --user-namespaces, its user's keyspace and staged values.
        LargeValues values = server.largeValues();
        List<byte[][]> large = largeValues(requests);
        List<CompletableFuture<?>> staging = new ArrayList<>();
        for (byte[][] argumentAndValue : large) {
            staging.add(values.stage(db, argumentAndValue[0], argumentAndValue[1]));
        }
        stageObjects(server, requests, db, large, staging);
        if (staging.isEmpty()) {
            return work.get();
        }
        return CompletableFuture.allOf(staging.toArray(new CompletableFuture[0]))
                .thenCompose(ignored -> work.get())
                .handle((result, failure) -> {
                    List<CompletableFuture<Void>> releases = new ArrayList<>();
                    for (byte[][] argumentAndValue : large) {
                        releases.add(values.release(argumentAndValue[0]));
                    }
                    return CompletableFuture.allOf(releases.toArray(new CompletableFuture[0]))
                            .handle((ignored, releaseFailure) -> null)
                            .thenCompose(ignored -> failure == null
                                    ? CompletableFuture.completedFuture(result)
                                    : CompletableFuture.<T>failedFuture(failure));
                })
                .thenCompose(f -> f);
    }

    /**
     * Starts staging the values (not strings) that arguments of {@code requests} stand for and
     * that are too large for one transaction ({@link CommandTable#stagesObjectOf}); adds each
     * staging to {@code staging} and its argument to {@code large}, so that it is released after.
     */
    private void stageObjects(ServerContext server, List<byte[][]> requests, int db, List<byte[][]> large,
                              List<CompletableFuture<?>> staging) {
        for (byte[][] args : requests) {
            if (!commands.get().mayStageObject(args[0])) {
                continue;
            }
            CommandSpec spec = commands.get().lookup(args[0]);
            Map.Entry<Integer, CommandTable.ObjectStager> stager = spec == null ? null : commands.get().objectStager(spec.name());
            if (stager == null || stager.getKey() >= args.length) {
                continue;
            }
            byte[] argument = args[stager.getKey()];
            CompletableFuture<?> staged = stager.getValue().stageIfLarge(server, args, db);
            if (staged != null) {
                staging.add(staged);
                large.add(new byte[][] {argument, null});
            }
        }
    }

    /** Pairs of (argument, the large value it stands for) to stage. */
    private List<byte[][]> largeValues(List<byte[][]> requests) {
        List<byte[][]> large = new ArrayList<>(0);
        for (byte[][] args : requests) {
            if (!hasLargeArgument(args)) {
                continue;
            }
            String name = new String(args[0], StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
            ValuePositions at = VALUES.get(name);
            if (at != null) {
                for (int i = at.first(); i < args.length; i += at.step() == 0 ? args.length : at.step()) {
                    if (args[i].length > STAGE_ABOVE) {
                        large.add(new byte[][] {args[i], args[i]});
                    }
                }
                continue;
            }
            CommandTable.StagedArgument staged = commands.get().stagedArgument(name);
            if (staged != null && staged.position() < args.length && args[staged.position()].length > STAGE_ABOVE) {
                byte[] value = valueOf(staged, args[staged.position()]);
                if (value != null && value.length > STAGE_ABOVE) {
                    large.add(new byte[][] {args[staged.position()], value});
                }
            }
        }
        return large;
    }

    /** The value the argument stands for; null when it is none (the command then answers the error itself). */
    private static byte[] valueOf(CommandTable.StagedArgument staged, byte[] argument) {
        try {
            return staged.value().apply(argument);
        } catch (RuntimeException malformed) {
            return null;
        }
    }

    private static boolean hasLargeArgument(byte[][] args) {
        for (byte[] arg : args) {
            if (arg.length > STAGE_ABOVE) {
                return true;
            }
        }
        return false;
    }
}
