package io.strata.redis.commands;

import com.apple.foundationdb.Transaction;
import io.strata.redis.command.Invocation;
import io.strata.redis.keyspace.KeyMeta;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** A plain set read as a sorted set whose members all score 1, as ZUNION/ZINTER/ZDIFF take sets. */
final class SetMembersForZSets {
    private SetMembersForZSets() {
    }

    static CompletableFuture<Map<ByteBuffer, Double>> read(Invocation inv, Transaction tr, KeyMeta meta) {
        return SetValues.ids(inv, meta).toBitmap(tr)
                .thenCompose(bitmap -> SetValues.strings(inv, tr, bitmap))
                .thenApply(SetMembersForZSets::scoredOne);
    }

    private static Map<ByteBuffer, Double> scoredOne(List<byte[]> members) {
        Map<ByteBuffer, Double> m = new LinkedHashMap<>();
        for (byte[] member : members) {
            m.put(ByteBuffer.wrap(member), 1.0);
        }
        return m;
    }
}
