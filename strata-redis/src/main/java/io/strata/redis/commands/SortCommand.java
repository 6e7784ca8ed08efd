package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.DATA;

import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.config.NotifyKeyspaceEvents;
import io.strata.redis.keyspace.KeyStore;
import io.strata.redis.keyspace.RedisType;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * SORT and SORT_RO on lists, sets and sorted sets. The elements come from the collection's
 * type through {@link CollectionTypes}; the BY weights and GET values are read with one read
 * per element and pattern, all issued at once; {@link SortEngine} orders them. Everything is
 * read and every error found (WRONGTYPE, scores that are not numbers) before STORE writes,
 * and the whole command is one transaction, so a sorted snapshot is consistent and STORE is
 * atomic.
 */
final class SortCommand {
    private SortCommand() {
    }

    static void register(CommandTable t) {
        t.add("sort", -2, "write denyoom movable_keys", 1, 1, 1, "set sortedset list dangerous", DATA,
                (inv, tr) -> sort(inv, tr, false));
        t.add("sort_ro", -2, "readonly movable_keys", 1, 1, 1, "set sortedset list dangerous", DATA,
                (inv, tr) -> sort(inv, tr, true));
    }

    private static CompletableFuture<Reply> sort(Invocation inv, Transaction tr, boolean readOnly) {
        SortOptions parsed = SortOptions.parse(inv, readOnly);
        KeyStore keys = inv.server().keys();
        int db = inv.db();
        return keys.get(tr, db, inv.arg(1), inv.now()).thenCompose(meta -> {
            if (meta != null && meta.type() != RedisType.LIST && meta.type() != RedisType.SET
                    && meta.type() != RedisType.ZSET) {
                throw RedisException.wrongType();
            }
            // A set has no order of its own: unsorted output to STORE or to a script would differ
            // from run to run, so Redis sorts it as strings then.
            SortOptions options = parsed.dontSort() && meta != null && meta.type() == RedisType.SET
                    && (parsed.store() != null || inv.session().scriptClient())
                    ? parsed.forcedAlpha() : parsed;
            CompletableFuture<List<byte[]>> elements = meta == null ? CompletableFuture.completedFuture(List.of())
                    : CollectionTypes.elements(tr, keys, db, meta);
            boolean keepsOrder = meta != null && meta.type() != RedisType.SET;
            return elements.thenCompose(list -> weights(inv, tr, options, list)
                    .thenApply(w -> SortEngine.order(list, keepsOrder, options, w)))
                    .thenCompose(selected -> output(inv, tr, options, selected));
        });
    }

    /** Each element's BY weight when the sort needs them, else null. */
    private static CompletableFuture<List<byte[]>> weights(Invocation inv, ReadTransaction tr, SortOptions options,
                                                           List<byte[]> elements) {
        if (options.by() == null || options.dontSort()) {
            return CompletableFuture.completedFuture(null);
        }
        return lookupAll(inv, tr, options.by(), elements);
    }

    private static CompletableFuture<List<byte[]>> lookupAll(Invocation inv, ReadTransaction tr, byte[] pattern,
                                                             List<byte[]> elements) {
        List<CompletableFuture<byte[]>> values = new ArrayList<>(elements.size());
        for (byte[] e : elements) {
            values.add(lookup(inv, tr, pattern, e));
        }
        return CompletableFuture.allOf(values.toArray(new CompletableFuture[0])).thenApply(ignored -> {
            List<byte[]> out = new ArrayList<>(values.size());
            for (CompletableFuture<byte[]> v : values) {
                out.add(v.join());
            }
            return out;
        });
    }

    /** What {@code pattern} names for {@code element}: a string value, a hash field, the element, or null. */
    private static CompletableFuture<byte[]> lookup(Invocation inv, ReadTransaction tr, byte[] pattern, byte[] element) {
        SortPattern p = SortPattern.resolve(pattern, element);
        if (p == null) {
            return CompletableFuture.completedFuture(null);
        }
        if (p == SortPattern.ELEMENT) {
            return CompletableFuture.completedFuture(element);
        }
        KeyStore keys = inv.server().keys();
        return keys.get(tr, inv.db(), p.key(), inv.now()).thenCompose(m -> {
            if (m == null) {
                return CompletableFuture.completedFuture(null);
            }
            if (p.field() != null) {
                return m.type() == RedisType.HASH ? CollectionTypes.hashField(tr, keys, inv.db(), m, p.field())
                        : CompletableFuture.completedFuture(null);
            }
            return m.type() == RedisType.STRING ? StringValues.read(tr, inv.server().keys(), inv.db(), m) : CompletableFuture.completedFuture(null);
        });
    }

    /** The reply, or with STORE the list written and its length. */
    private static CompletableFuture<Reply> output(Invocation inv, Transaction tr, SortOptions options, List<byte[]> selected) {
        CompletableFuture<List<byte[]>> values;
        if (options.gets().isEmpty()) {
            values = CompletableFuture.completedFuture(selected);
        } else {
            List<CompletableFuture<List<byte[]>>> perPattern = new ArrayList<>();
            for (byte[] get : options.gets()) {
                perPattern.add(lookupAll(inv, tr, get, selected));
            }
            values = CompletableFuture.allOf(perPattern.toArray(new CompletableFuture[0])).thenApply(ignored -> {
                // Element by element, each GET pattern in the order given.
                List<byte[]> out = new ArrayList<>(selected.size() * perPattern.size());
                for (int i = 0; i < selected.size(); i++) {
                    for (CompletableFuture<List<byte[]>> p : perPattern) {
                        out.add(p.join().get(i));
                    }
                }
                return out;
            });
        }
        if (options.store() == null) {
            return values.thenApply(Reply::bulks);
        }
        return values.thenCompose(list -> store(inv, tr, options.store(), list));
    }

    /** SORT ... STORE: the result replaces the destination as a list (GET's missing values as empty strings). */
    private static CompletableFuture<Reply> store(Invocation inv, Transaction tr, byte[] destination, List<byte[]> values) {
        KeyStore keys = inv.server().keys();
        int db = inv.db();
        List<byte[]> elements = new ArrayList<>(values.size());
        for (byte[] v : values) {
            elements.add(v == null ? new byte[0] : v);
        }
        return keys.getForWrite(tr, db, destination, inv.now()).thenCompose(old -> {
            if (elements.isEmpty()) {
                if (old != null) {
                    keys.delete(tr, db, destination, old);
                    inv.keyspaceEvent(tr, NotifyKeyspaceEvents.GENERIC, "del", destination);
                }
                return CompletableFuture.completedFuture(Reply.ZERO);
            }
            return CollectionTypes.storeList(tr, keys, db, destination, old, elements)
                    .thenApply(ignored -> {
                        inv.keyspaceEvent(tr, NotifyKeyspaceEvents.LIST, "sortstore", destination);
                        return Reply.integer(elements.size());
                    });
        });
    }
}
