package io.strata.redis.commands;

import com.apple.foundationdb.Transaction;
import io.strata.redis.command.Invocation;
import io.strata.redis.keyspace.KeyMeta;
import io.strata.redis.protocol.RedisException;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A plain set read as a sorted set whose members all score 1, as ZUNION/ZINTER/ZDIFF take
 * sets. Until the set commands are on this branch, a set input is refused explicitly.
 */
final class SetMembersForZSets {
    private SetMembersForZSets() {
    }

    static CompletableFuture<Map<ByteBuffer, Double>> read(Invocation inv, Transaction tr, KeyMeta meta) {
        throw new RedisException("ERR sets as inputs of sorted-set operations are not supported yet");
    }
}
