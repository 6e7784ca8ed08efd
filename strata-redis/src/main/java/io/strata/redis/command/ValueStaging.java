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
 * SETNX, GETSET (argument 2), SETEX, PSETEX (3), MSET, MSETNX (2, 4, ...). Other commands
 * refuse such values with an error, as before.
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

    /** The server's, which exist once it has opened its keyspace (after this is built). */
    private final Supplier<LargeValues> values;

    ValueStaging(Supplier<LargeValues> values) {
        this.values = values;
    }

    /**
     * Runs {@code work} once the large values among {@code requests} are staged in database
     * {@code db}; releases them when it is done, before its result is passed on. Without
     * large values, runs it at once.
     */
    <T> CompletableFuture<T> around(List<byte[][]> requests, int db, Supplier<CompletableFuture<T>> work) {
        List<byte[]> large = largeValues(requests);
        if (large.isEmpty()) {
            return work.get();
        }
        List<CompletableFuture<?>> staging = new ArrayList<>();
        for (byte[] value : large) {
            staging.add(values.get().stage(db, value));
        }
        return CompletableFuture.allOf(staging.toArray(new CompletableFuture[0]))
                .thenCompose(ignored -> work.get())
                .handle((result, failure) -> {
                    List<CompletableFuture<Void>> releases = new ArrayList<>();
                    for (byte[] value : large) {
                        releases.add(values.get().release(value));
                    }
                    return CompletableFuture.allOf(releases.toArray(new CompletableFuture[0]))
                            .handle((ignored, releaseFailure) -> null)
                            .thenCompose(ignored -> failure == null
                                    ? CompletableFuture.completedFuture(result)
                                    : CompletableFuture.<T>failedFuture(failure));
                })
                .thenCompose(f -> f);
    }

    private static List<byte[]> largeValues(List<byte[][]> requests) {
        List<byte[]> large = new ArrayList<>(0);
        for (byte[][] args : requests) {
            if (!hasLargeArgument(args)) {
                continue;
            }
            ValuePositions at = VALUES.get(new String(args[0], StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT));
            if (at == null) {
                continue;
            }
            for (int i = at.first(); i < args.length; i += at.step() == 0 ? args.length : at.step()) {
                if (args[i].length > STAGE_ABOVE) {
                    large.add(args[i]);
                }
            }
        }
        return large;
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
