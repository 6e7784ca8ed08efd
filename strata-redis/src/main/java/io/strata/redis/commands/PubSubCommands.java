package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.DATA;
import static io.strata.redis.command.CommandSpec.Kind.LOCAL;
import static io.strata.redis.command.Invocation.done;

import com.apple.foundationdb.Transaction;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.keyspace.LargeValues;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;
import io.strata.redis.pubsub.ChannelKind;
import io.strata.redis.pubsub.PubSub;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

/**
 * Publish/subscribe: SUBSCRIBE, PSUBSCRIBE, SSUBSCRIBE and their UNSUBSCRIBEs (which change
 * the connection, and register it in the database on their own: LOCAL), PUBLISH and SPUBLISH
 * (which append to the database's queue inside the command's transaction, so a PUBLISH in
 * MULTI/EXEC is published exactly when EXEC commits), and PUBSUB's introspection. How
 * messages travel between processes: {@link PubSub}.
 */
final class PubSubCommands {
    private static final String SUBSCRIBE_FLAGS = "pubsub noscript loading stale";

    private PubSubCommands() {
    }

    static void register(CommandTable t) {
        t.add("subscribe", -2, SUBSCRIBE_FLAGS, 0, 0, 0, "", LOCAL, (inv, tr) -> subscribe(inv, ChannelKind.CHANNEL));
        t.add("psubscribe", -2, SUBSCRIBE_FLAGS, 0, 0, 0, "", LOCAL, (inv, tr) -> subscribe(inv, ChannelKind.PATTERN));
        t.add("ssubscribe", -2, SUBSCRIBE_FLAGS, 1, -1, 1, "", LOCAL, (inv, tr) -> subscribe(inv, ChannelKind.SHARD));
        t.add("unsubscribe", -1, SUBSCRIBE_FLAGS, 0, 0, 0, "", LOCAL, (inv, tr) -> unsubscribe(inv, ChannelKind.CHANNEL));
        t.add("punsubscribe", -1, SUBSCRIBE_FLAGS, 0, 0, 0, "", LOCAL, (inv, tr) -> unsubscribe(inv, ChannelKind.PATTERN));
        t.add("sunsubscribe", -1, SUBSCRIBE_FLAGS, 1, -1, 1, "", LOCAL, (inv, tr) -> unsubscribe(inv, ChannelKind.SHARD));
        t.add("publish", 3, "pubsub loading stale fast may_replicate", 0, 0, 0, "", DATA,
                (inv, tr) -> publish(inv, tr, ChannelKind.CHANNEL));
        t.add("spublish", 3, "pubsub loading stale fast may_replicate", 1, 1, 1, "", DATA,
                (inv, tr) -> publish(inv, tr, ChannelKind.SHARD));
        // A message over what one transaction carries is staged first, as a large string value.
        t.stagesValueOf("publish", 2, message -> message);
        t.stagesValueOf("spublish", 2, message -> message);
        t.addContainer("pubsub");
        t.addSubcommand("pubsub", "help", 2, "loading stale", 0, 0, 0, "", DATA, PubSubCommands::pubsub);
        t.addSubcommand("pubsub", "numpat", 2, "pubsub loading stale", 0, 0, 0, "", DATA, PubSubCommands::pubsub);
        for (String sub : new String[] {"channels", "numsub", "shardchannels", "shardnumsub"}) {
            t.addSubcommand("pubsub", sub, -2, "pubsub loading stale", 0, 0, 0, "", DATA, PubSubCommands::pubsub);
        }
    }

    private static CompletableFuture<Reply> subscribe(Invocation inv, ChannelKind kind) {
        List<byte[]> names = Arrays.asList(inv.args()).subList(1, inv.argc());
        return inv.server().pubsub().subscribe(inv.session(), kind, names);
    }

    private static CompletableFuture<Reply> unsubscribe(Invocation inv, ChannelKind kind) {
        List<byte[]> names = inv.argc() == 1 ? null : Arrays.asList(inv.args()).subList(1, inv.argc());
        return inv.server().pubsub().unsubscribe(inv.session(), kind, names);
    }

    /**
     * PUBLISH / SPUBLISH channel message. A message too large for the command's transaction was
     * staged before it ran ({@code ValueStaging}), as a large string is: the transaction claims
     * the staged object and queues a reference to it.
     */
    private static CompletableFuture<Reply> publish(Invocation inv, Transaction tr, ChannelKind kind) {
        LargeValues large = inv.server().largeValues();
        LargeValues.Staged staged = large.stagedFor(inv.arg(2));
        if (staged == null) {
            return inv.server().pubsub().publish(tr, kind, inv.arg(1), inv.arg(2)).thenApply(Reply::integer);
        }
        byte[] object = inv.server().keys().keyspace().object(staged.db(), staged.id()).getKey();
        return large.claim(tr, staged)
                .thenCompose(ignored -> inv.server().pubsub().publishStored(tr, kind, inv.arg(1), object))
                .thenApply(Reply::integer);
    }

    private static CompletableFuture<Reply> pubsub(Invocation inv, Transaction tr) {
        PubSub pubsub = inv.server().pubsub();
        switch (inv.option(1)) {
            case "HELP":
                arity(inv, 2);
                return done(help());
            case "CHANNELS":
                return channels(inv, tr, ChannelKind.CHANNEL);
            case "SHARDCHANNELS":
                return channels(inv, tr, ChannelKind.SHARD);
            case "NUMSUB":
                return numsub(inv, tr, ChannelKind.CHANNEL);
            case "SHARDNUMSUB":
                return numsub(inv, tr, ChannelKind.SHARD);
            case "NUMPAT":
                arity(inv, 2);
                return pubsub.channels(tr, ChannelKind.PATTERN, null).thenApply(patterns -> Reply.integer(patterns.size()));
            default:
                throw new RedisException("ERR unknown subcommand '" + inv.argText(1, 128) + "'. Try PUBSUB HELP.");
        }
    }

    private static CompletableFuture<Reply> channels(Invocation inv, Transaction tr, ChannelKind kind) {
        if (inv.argc() > 3) {
            throw inv.subcommandSyntaxError();
        }
        byte[] pattern = inv.argc() == 3 ? inv.arg(2) : null;
        return inv.server().pubsub().channels(tr, kind, pattern).thenApply(Reply::bulks);
    }

    private static CompletableFuture<Reply> numsub(Invocation inv, Transaction tr, ChannelKind kind) {
        List<CompletableFuture<Long>> counts = new ArrayList<>();
        for (int i = 2; i < inv.argc(); i++) {
            counts.add(inv.server().pubsub().subscribers(tr, kind, inv.arg(i)));
        }
        return CompletableFuture.allOf(counts.toArray(new CompletableFuture[0])).thenApply(ignored -> {
            List<Reply> out = new ArrayList<>();
            for (int i = 2; i < inv.argc(); i++) {
                out.add(Reply.bulk(inv.arg(i)));
                out.add(Reply.integer(counts.get(i - 2).join()));
            }
            return Reply.array(out);
        });
    }

    private static void arity(Invocation inv, int n) {
        if (inv.argc() != n) {
            throw new RedisException("ERR wrong number of arguments for 'pubsub|"
                    + inv.argString(1).toLowerCase(Locale.ROOT) + "' command");
        }
    }

    private static Reply help() {
        List<Reply> lines = new ArrayList<>();
        for (String l : new String[] {
            "PUBSUB <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
            "CHANNELS [<pattern>]",
            "    Return the currently active channels matching a <pattern> (default: '*').",
            "NUMPAT",
            "    Return number of subscriptions to patterns.",
            "NUMSUB [<channel> ...]",
            "    Return the number of subscribers for the specified channels, excluding",
            "    pattern subscriptions(default: no channels).",
            "SHARDCHANNELS [<pattern>]",
            "    Return the currently active shard level channels matching a <pattern> (default: '*').",
            "SHARDNUMSUB [<shardchannel> ...]",
            "    Return the number of subscribers for the specified shard level channel(s)",
            "HELP",
            "    Prints this help."}) {
            lines.add(Reply.simple(l));
        }
        return Reply.array(lines);
    }
}
