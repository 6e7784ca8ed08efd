package io.strata.redis.scripting;

import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Function libraries in the database, so that they survive restarts (Redis keeps them in its
 * RDB and AOF) and every server on the same database sees the same ones. FLUSHALL leaves them,
 * as in Redis.
 *
 * <pre>
 * F ("lib", name)  -&gt; the library's code as FUNCTION LOAD received it
 * F ("fn", name)   -&gt; the name of the library that registers function {@code name}, the name
 *                     in lower case: function names are case-insensitive, as in Redis 7.0
 * </pre>
 * (Functions stored before names were folded are found by their exact name too.)
 * where F is the server directory's area {@code 'f'}. Every method works inside the caller's
 * transaction: a load, a delete and an FCALL are serializable with each other.
 */
final class FunctionStore {
    private final Subspace area;

    FunctionStore(Subspace area) {
        this.area = area;
    }

    CompletableFuture<byte[]> code(Transaction tr, String library) {
        return tr.get(area.pack(Tuple.from("lib", library)));
    }

    /** The library registering {@code function}, or null. */
    CompletableFuture<String> libraryOf(Transaction tr, String function) {
        String folded = fold(function);
        CompletableFuture<byte[]> owner = tr.get(area.pack(Tuple.from("fn", folded)));
        if (!folded.equals(function)) {
            CompletableFuture<byte[]> exact = tr.get(area.pack(Tuple.from("fn", function)));
            owner = owner.thenCombine(exact, (f, e) -> f != null ? f : e);
        }
        return owner.thenApply(v -> v == null ? null : new String(v, StandardCharsets.UTF_8));
    }

    private static String fold(String function) {
        return function.toLowerCase(java.util.Locale.ROOT);
    }

    /** Every library's code, by name. */
    CompletableFuture<List<byte[]>> codes(Transaction tr) {
        return tr.getRange(area.range(Tuple.from("lib"))).asList().thenApply(kvs -> {
            List<byte[]> codes = new ArrayList<>(kvs.size());
            for (KeyValue kv : kvs) {
                codes.add(kv.getValue());
            }
            return codes;
        });
    }

    /** Stores {@code library}, replacing {@code old} (null when new) and its functions. */
    void save(Transaction tr, Library library, Library old) {
        if (old != null) {
            delete(tr, old);
        }
        tr.set(area.pack(Tuple.from("lib", library.name())), library.code());
        for (FunctionDef f : library.functions()) {
            tr.set(area.pack(Tuple.from("fn", fold(f.name()))), library.name().getBytes(StandardCharsets.UTF_8));
        }
    }

    void delete(Transaction tr, Library library) {
        tr.clear(area.pack(Tuple.from("lib", library.name())));
        for (FunctionDef f : library.functions()) {
            tr.clear(area.pack(Tuple.from("fn", fold(f.name()))));
            tr.clear(area.pack(Tuple.from("fn", f.name())));
        }
    }

    void flush(Transaction tr) {
        tr.clear(area.range());
    }
}
